import type { Readable } from 'node:stream';
import type { FileRequestInfo } from '@burrow/protocol';
import { badRequest, forbidden, locked, notFound, payloadTooLarge } from '../../errors.js';
import type { Cluster } from '../../storage/cluster.js';
import { joinVirtual } from '../../storage/virtual-path.js';
import type { UploadsRepository } from '../uploads/uploads.repository.js';
import type { UploadProgress, UploadsService } from '../uploads/uploads.service.js';
import type { OpenRequest, ShareAccess, ShareCredentials } from './share-access.js';
import type { FileRequestsRepository, FileRequestUpload } from './file-requests.repository.js';

type HeaderValue = string | string[] | undefined;

/** Longest file name accepted, in bytes (the usual filesystem limit). */
const MAX_NAME_BYTES = 255;
const MAX_RENAME_ATTEMPTS = 1000;

/** Reads one key of a tus `Upload-Metadata` header (`key base64,key base64`). */
function metadataValue(header: HeaderValue, key: string): string | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) return undefined;
  for (const pair of text.split(',')) {
    const [name, value] = pair.trim().split(' ');
    if (name !== key) continue;
    if (value === undefined) return '';
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw badRequest('malformed Upload-Metadata');
    return Buffer.from(value, 'base64').toString('utf8');
  }
  return undefined;
}

/**
 * The name an uploader's file is stored under: a single plain name. Anything that could reach
 * another folder or hide the file is refused rather than rewritten, so the uploader learns it.
 */
function checkUploadName(raw: string | undefined): string {
  const name = (raw ?? '').normalize('NFC');
  if (!name.trim()) throw badRequest('a file name is required (Upload-Metadata filename)');
  if (name.includes('/') || name.includes('\\')) throw badRequest('file names cannot contain / or \\');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('file names cannot contain control characters');
  if (name === '.' || name === '..') throw badRequest('invalid file name');
  if (name.startsWith('.')) throw badRequest('file names cannot start with a dot');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw badRequest('file name is too long');
  return name;
}

/** `a.tar.gz` → `a.tar` + `.gz`; numbered as the app numbers copies: `a.tar(1).gz`. */
function numbered(name: string, counter: number): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${name}(${counter})`;
  return `${name.slice(0, dot)}(${counter})${name.slice(dot)}`;
}

function parseDeclaredLength(value: HeaderValue, deferred: HeaderValue): number {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) {
    throw badRequest(deferred !== undefined ? 'uploads through a file request must declare Upload-Length' : 'Upload-Length is required');
  }
  if (!/^\d{1,16}$/.test(text)) throw badRequest('invalid Upload-Length');
  return Number(text);
}

/** How long a creation's lease on an owner lasts without renewal (a killed holder frees it then). */
const OWNER_LEASE_MS = 10_000;
/** How long a creation waits for creations on other instances before answering 423. */
const OWNER_WAIT_MS = 30_000;

/**
 * Runs `task` holding the cluster lease `file-requests:<key>`, waiting for it up to
 * `OWNER_WAIT_MS` (423 after that: tus clients retry), renewed while the task runs. A task whose
 * lease cannot be kept is not stopped: it only writes rows, each correct on its own, and the
 * lease outlives any creation that does not stall for its whole lifetime.
 */
async function underLease<T>(cluster: Pick<Cluster, 'lease'>, key: string, task: () => Promise<T>): Promise<T> {
  const name = `file-requests:${key}`;
  const deadline = Date.now() + OWNER_WAIT_MS;
  let lease = await cluster.lease(name, OWNER_LEASE_MS);
  while (!lease) {
    if (Date.now() >= deadline) throw locked('another upload to this link is being started');
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.floor(Math.random() * 30)));
    lease = await cluster.lease(name, OWNER_LEASE_MS);
  }
  const held = lease;
  const timer = setInterval(() => void held.renew().catch(() => false), OWNER_LEASE_MS / 4);
  timer.unref();
  try {
    return await task();
  } finally {
    clearInterval(timer);
    await held.release().catch(() => undefined);
  }
}

export type FileRequests = ReturnType<typeof createFileRequests>;

/**
 * Uploads through upload-only links. Each one is an ordinary tus upload of the link's owner (the
 * same gate, rules, permissions, free-space check, hooks, file events and atomic placement); this
 * only picks a free name in the link's folder, enforces the link's limits, and remembers which
 * upload belongs to which link, so an uploader can reach no other upload and no other path.
 */
export function createFileRequests(deps: {
  access: ShareAccess;
  uploads: UploadsService;
  uploadRows: UploadsRepository;
  repository: FileRequestsRepository;
  /** Instances sharing the database: a creation also holds the owner's lease among them. */
  cluster?: Pick<Cluster, 'shared' | 'lease'>;
}) {
  const { access, uploads, uploadRows, repository } = deps;
  const cluster = deps.cluster?.shared ? deps.cluster : undefined;

  // One creation at a time per owner: a link's limits are checked and its reservation written
  // with no other creation in between, so parallel uploads cannot pass them together, and two
  // links to one folder cannot pick the same free name (a second upload for a path would
  // replace the first). Within this instance a queue orders them; across instances sharing the
  // database, each also holds a lease on the owner for its duration.
  const queues = new Map<string, Promise<unknown>>();
  function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = queues.get(key) ?? Promise.resolve();
    const guarded = cluster ? () => underLease(cluster, key, task) : task;
    const run = previous.then(guarded, guarded);
    const settled = run.catch(() => undefined);
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return run;
  }

  /**
   * The link's uploads that still count: finished ones, and those in progress. An upload whose
   * tus upload is gone (expired, abandoned or failed at placement) no longer holds its place.
   */
  async function liveUploads(hash: string): Promise<FileRequestUpload[]> {
    const live: FileRequestUpload[] = [];
    for (const upload of await repository.listByShare(hash)) {
      if (upload.finishedAt !== undefined) {
        live.push(upload);
        continue;
      }
      const row = await uploadRows.findById(upload.uploadId);
      if (!row) {
        await repository.remove(upload.uploadId);
        continue;
      }
      if (row.stagingPath === '') {
        const at = row.updatedAt;
        await repository.markFinished(upload.uploadId, at);
        live.push({ ...upload, finishedAt: at });
      } else {
        live.push(upload);
      }
    }
    return live;
  }

  function remaining(open: OpenRequest, live: FileRequestUpload[]): { files?: number; bytes?: number } {
    const { maxFiles, maxTotalSize } = open.request;
    const used = live.reduce((sum, upload) => sum + upload.length, 0);
    return {
      files: maxFiles > 0 ? Math.max(0, maxFiles - live.length) : undefined,
      bytes: maxTotalSize > 0 ? Math.max(0, maxTotalSize - used) : undefined,
    };
  }

  /** A name in the folder that no file, link or upload in progress of the owner holds. */
  async function freeTarget(open: OpenRequest, name: string): Promise<string> {
    for (let counter = 0; counter <= MAX_RENAME_ATTEMPTS; counter++) {
      const candidate = joinVirtual(open.folder, counter === 0 ? name : numbered(name, counter));
      // The gate (rules, hidden dotfiles, confinement) answers 403 for a name the owner may not use.
      const resolved = await open.ownerScope.resolve(candidate, 'write');
      if (resolved.stat) continue;
      if ((await uploadRows.listByUserPath(open.owner.id, resolved.virtual)).length > 0) continue;
      return resolved.virtual;
    }
    throw forbidden('no free name left for this file');
  }

  /** The link's upload `id`, which must still be the owner's current upload for its path. */
  async function ownUpload(open: OpenRequest, id: string): Promise<FileRequestUpload> {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw notFound();
    const upload = await repository.find(open.share.hash, id);
    if (!upload) throw notFound();
    const current = await uploadRows.findByUserPath(open.owner.id, upload.path);
    if (!current || current.id !== upload.uploadId) throw notFound();
    return upload;
  }

  async function noteProgress(upload: FileRequestUpload, progress: UploadProgress): Promise<void> {
    if (progress.length >= 0 && progress.offset === progress.length) await repository.markFinished(upload.uploadId, Date.now());
  }

  return {
    /** GET: what the uploader is told (the note and the limits, and what is left of them). */
    async info(hash: string, credentials: ShareCredentials): Promise<FileRequestInfo> {
      const open = await access.openRequest(hash, credentials);
      const left = remaining(open, await liveUploads(hash));
      const info: FileRequestInfo = { name: open.name, note: open.request.note, maxFileSize: open.request.maxFileSize, maxTotalSize: open.request.maxTotalSize, maxFiles: open.request.maxFiles };
      if (left.files !== undefined) info.remainingFiles = left.files;
      if (left.bytes !== undefined) info.remainingBytes = left.bytes;
      return info;
    },

    /** POST: checks the limits and starts the owner's upload under a free name; returns its id. */
    async create(hash: string, credentials: ShareCredentials, request: { uploadLength: HeaderValue; deferLength: HeaderValue; metadata: HeaderValue }): Promise<{ id: string }> {
      const open = await access.openRequest(hash, credentials);
      const length = parseDeclaredLength(request.uploadLength, request.deferLength);
      const name = checkUploadName(metadataValue(request.metadata, 'filename'));
      const { maxFileSize } = open.request;
      if (maxFileSize > 0 && length > maxFileSize) throw payloadTooLarge('the file is larger than this link accepts');
      return serialised(`owner:${open.owner.id}`, async () => {
        const left = remaining(open, await liveUploads(hash));
        if (left.files !== undefined && left.files <= 0) throw forbidden('this link accepts no more files');
        if (left.bytes !== undefined && length > left.bytes) throw payloadTooLarge('the file is larger than what this link still accepts');
        const target = await freeTarget(open, name);
        const created = await uploads.create(open.owner, target, { uploadLength: String(length), override: false });
        const row = await uploadRows.findByUserPath(open.owner.id, created.virtual);
        if (!row) throw notFound();
        const now = Date.now();
        await repository.insert({
          uploadId: row.id,
          shareHash: hash,
          path: created.virtual,
          length,
          createdAt: now,
          finishedAt: row.stagingPath === '' ? now : undefined,
        });
        return { id: row.id };
      });
    },

    /** HEAD: the offset to continue from. */
    async status(hash: string, credentials: ShareCredentials, id: string): Promise<UploadProgress> {
      const open = await access.openRequest(hash, credentials);
      const upload = await ownUpload(open, id);
      const progress = await uploads.status(open.owner, upload.path);
      await noteProgress(upload, progress);
      return progress;
    },

    /**
     * PATCH: appends through the owner's upload, which never takes a byte past the length
     * declared (and checked) at creation: a longer body is cut off with 413.
     */
    async append(
      hash: string,
      credentials: ShareCredentials,
      id: string,
      request: { contentType: HeaderValue; uploadOffset: HeaderValue; contentLength: number | undefined; body: Readable },
    ): Promise<UploadProgress> {
      const open = await access.openRequest(hash, credentials);
      const upload = await ownUpload(open, id);
      const progress = await uploads.append(open.owner, upload.path, request);
      await noteProgress(upload, progress);
      return progress;
    },

    stats: repository.statsOf,
  };
}
