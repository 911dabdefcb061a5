import { MaxFileRequestNoteLength, MaxSharePasswordBytes, type CreateShareRequest, type Share } from '@burrow/protocol';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Scopes } from '../../storage/scopes.js';
import { cleanVirtualPath } from '../../storage/virtual-path.js';
import { hashPassword } from '../auth/passwords.js';
import type { UserRecord } from '../users/users.model.js';
import type { UsersRepository } from '../users/users.repository.js';
import { expiryFor } from './share-expiry.js';
import { newShareHash, newShareToken } from './share-secrets.js';
import { isExpired, sharePathKey, type FileRequestSettings, type ShareRecord } from './shares.model.js';
import type { FileRequestsRepository, FileRequestStats } from './file-requests.repository.js';
import { toShareView } from './shares.presenter.js';
import { targetIdentity } from './share-target.js';
import type { SharesRepository } from './shares.repository.js';

export type SharesService = ReturnType<typeof createSharesService>;

/** Every share endpoint needs both permissions: a link is a download handed to someone else. */
export function canShare(user: UserRecord): boolean {
  return user.perm.share && user.perm.download;
}

function assertCanShare(user: UserRecord): void {
  if (!canShare(user)) throw forbidden();
}

/** Server-root-relative path of a virtual path in a user's scope (lexical, no trailing slash). */
function absolutePath(scope: string, virtual: string): string {
  const base = cleanVirtualPath(scope || '/').path;
  const inner = sharePathKey(virtual);
  if (base === '/') return inner;
  return inner === '/' ? base : base + inner;
}

/** Checks a create request body, which may arrive as text (filebrowser's client sends no JSON type). */
function readCreateBody(body: unknown): CreateShareRequest {
  let value = body;
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    const text = value.toString();
    if (!text.trim()) throw badRequest('a JSON body is required');
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('malformed JSON');
    }
  }
  if (value === undefined || value === null) throw badRequest('a JSON body is required');
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('the body must be a JSON object');
  const { password, expires, unit, uploadOnly, note, maxFileSize, maxTotalSize, maxFiles } = value as Record<string, unknown>;
  if (password !== undefined && password !== null && typeof password !== 'string') throw badRequest('password must be a string');
  if (expires !== undefined && expires !== null && typeof expires !== 'string' && typeof expires !== 'number') {
    throw badRequest('expires must be a whole number');
  }
  if (unit !== undefined && unit !== null && typeof unit !== 'string') throw badRequest('unit must be a string');
  const request: CreateShareRequest = {
    password: typeof password === 'string' ? password : undefined,
    expires: typeof expires === 'string' || typeof expires === 'number' ? expires : undefined,
    unit: typeof unit === 'string' ? unit : undefined,
  };
  if (uploadOnly !== undefined && uploadOnly !== null && typeof uploadOnly !== 'boolean') throw badRequest('uploadOnly must be true or false');
  if (uploadOnly !== true) {
    if ([note, maxFileSize, maxTotalSize, maxFiles].some((field) => field !== undefined && field !== null)) {
      throw badRequest('note and limits are for upload-only links');
    }
    return request;
  }
  if (note !== undefined && note !== null && typeof note !== 'string') throw badRequest('note must be a string');
  if (typeof note === 'string' && note.length > MaxFileRequestNoteLength) throw badRequest('note is too long');
  return {
    ...request,
    uploadOnly: true,
    note: typeof note === 'string' ? note : '',
    maxFileSize: readLimit(maxFileSize, 'maxFileSize'),
    maxTotalSize: readLimit(maxTotalSize, 'maxTotalSize'),
    maxFiles: readLimit(maxFiles, 'maxFiles'),
  };
}

/** A file request limit: a whole number ≥ 0 (0 or absent means none). */
function readLimit(value: unknown, name: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw badRequest(`${name} must be a whole number of at least 0`);
  return value;
}

/** The authenticated share API: list, look up by path, create and delete links. */
export function createSharesService(deps: { shares: SharesRepository; users: UsersRepository; scopes: Scopes; fileRequests?: FileRequestsRepository }) {
  const { shares, users, scopes } = deps;

  /** What arrived through the file requests among `rows`, by hash. */
  async function receivedBy(rows: ShareRecord[]): Promise<Map<string, FileRequestStats>> {
    const hashes = rows.filter((share) => share.request).map((share) => share.hash);
    return deps.fileRequests && hashes.length ? deps.fileRequests.statsOf(hashes) : new Map();
  }

  /** Drops expired links and links whose owner no longer exists; returns what is left with owners. */
  async function liveLinks(rows: ShareRecord[]): Promise<Array<{ share: ShareRecord; owner: UserRecord }>> {
    const owners = new Map((await users.list()).map((user) => [user.id, user]));
    const now = Date.now();
    const dead: string[] = [];
    const live: Array<{ share: ShareRecord; owner: UserRecord }> = [];
    for (const share of rows) {
      const owner = owners.get(share.userId);
      if (!owner || isExpired(share, now)) dead.push(share.hash);
      else live.push({ share, owner });
    }
    await shares.removeMany(dead);
    return live;
  }

  return {
    /** GET /api/shares: all links for admins (with usernames), otherwise the caller's own. */
    async list(requester: UserRecord): Promise<Share[]> {
      assertCanShare(requester);
      await shares.purgeExpired();
      if (requester.perm.admin) {
        const live = await liveLinks(await shares.list());
        const received = await receivedBy(live.map(({ share }) => share));
        return live.map(({ share, owner }) => toShareView(share, { username: owner.username, received: received.get(share.hash) }));
      }
      const own = await liveLinks(await shares.listByUser(requester.id));
      const received = await receivedBy(own.map(({ share }) => share));
      return own.map(({ share }) => toShareView(share, { received: received.get(share.hash) }));
    },

    /**
     * GET /api/share/{path}: the links for exactly that path. For an admin, every link whose
     * owner's absolute path is the admin's absolute path for `{path}`.
     */
    async forPath(requester: UserRecord, decodedPath: string): Promise<Share[]> {
      assertCanShare(requester);
      const scope = await scopes.forUser(requester);
      const { virtual } = await scope.resolve(decodedPath, 'read');
      await shares.purgeExpired();
      if (requester.perm.admin) {
        const wanted = absolutePath(requester.scope, virtual);
        const live = (await liveLinks(await shares.list())).filter(({ share, owner }) => absolutePath(owner.scope, share.path) === wanted);
        const received = await receivedBy(live.map(({ share }) => share));
        return live.map(({ share }) => toShareView(share, { received: received.get(share.hash) }));
      }
      const candidates = virtual === '/' ? ['/'] : [virtual, `${virtual}/`];
      const own = await liveLinks(await shares.listByUserAndPaths(requester.id, candidates));
      const received = await receivedBy(own.map(({ share }) => share));
      return own.map(({ share }) => toShareView(share, { received: received.get(share.hash) }));
    },

    /** POST /api/share/{path}: the target must exist and be allowed in the caller's scope. */
    async create(requester: UserRecord, decodedPath: string, body: unknown): Promise<Share> {
      assertCanShare(requester);
      const request = readCreateBody(body);
      const expire = expiryFor(request.expires, request.unit);
      const password = request.password ?? '';
      if (Buffer.byteLength(password) > MaxSharePasswordBytes) throw badRequest('password is too long');
      const scope = await scopes.forUser(requester);
      const resolved = await scope.resolve(decodedPath, 'read');
      // A dangling link resolves to the link itself: there is nothing to share behind it.
      if (!resolved.stat || resolved.stat.isSymbolicLink()) throw notFound();
      const isDir = resolved.stat.isDirectory();
      let fileRequest: FileRequestSettings | undefined;
      if (request.uploadOnly) {
        // Uploaders add files as the owner: the owner must be allowed to create them there.
        if (!requester.perm.create) throw forbidden();
        if (!isDir) throw badRequest('only a folder can receive uploads');
        await scope.resolve(resolved.virtual, 'write');
        fileRequest = { note: request.note ?? '', maxFileSize: request.maxFileSize ?? 0, maxTotalSize: request.maxTotalSize ?? 0, maxFiles: request.maxFiles ?? 0 };
      }
      const target = await targetIdentity(resolved.real);
      if (!target) throw notFound();
      const record: ShareRecord = {
        hash: newShareHash(),
        path: isDir && resolved.virtual !== '/' ? `${resolved.virtual}/` : resolved.virtual,
        userId: requester.id,
        expire,
        passwordHash: password ? await hashPassword(password) : '',
        token: password ? newShareToken() : '',
        createdAt: Date.now(),
        target,
        request: fileRequest,
      };
      await shares.insert(record);
      return toShareView(record);
    },

    /** DELETE /api/share/{hash}: the owner or an admin only. */
    async remove(requester: UserRecord, hash: string): Promise<void> {
      assertCanShare(requester);
      if (!hash) throw badRequest('share hash is empty');
      const share = await shares.findByHash(hash);
      if (!share) throw notFound();
      if (isExpired(share)) {
        await shares.remove(hash);
        throw notFound();
      }
      if (share.userId !== requester.id && !requester.perm.admin) throw forbidden();
      await shares.remove(hash);
    },
  };
}
