import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { badRequest, conflict, forbidden, locked, notFound, payloadTooLarge } from '../../errors.js';
import type { Scope } from '../../storage/scoped-fs.js';
import type { UserRecord } from '../users/users.model.js';
import { OverLengthError, StagingWriter } from '../../storage/staging-writer.js';
import { receiveBody } from './body-writer.js';
import { checkTarget, completeUpload, missingParents } from './upload-completion.js';
import { discardUpload, pathLockKey, reconcileUpload, uploadLockKey, withLocalStaging, type UploadContext } from './upload-context.js';
import { isFinished, type UploadRecord } from './uploads.repository.js';
import { checkPatchContentType, isLengthKnown, parseCreationLength, parseUploadLength, parseUploadOffset, UNDECLARED_LENGTH } from './tus-headers.js';
import { createUploadSweeper } from './upload-sweeper.js';
import type { HeldLock } from './upload-locks.js';

/** The lock of the upload being written was lost to another instance. */
class LockLostError extends Error {
  constructor() {
    super('the upload lock was lost');
  }
}

/** How long a DELETE waits for a PATCH of the same upload to notice its client went away. */
const TerminateLockWaitMs = 3000;

type HeaderValue = string | string[] | undefined;

export type CreateRequest = { uploadLength: HeaderValue; deferLength?: HeaderValue; override: boolean };
export type AppendRequest = { contentType: HeaderValue; uploadOffset: HeaderValue; uploadLength?: HeaderValue; contentLength: number | undefined; body: Readable };
/** `length` is negative while the upload's length is not known (see `DEFERRED_LENGTH`). */
export type UploadProgress = { offset: number; length: number };

export type UploadsService = ReturnType<typeof createUploadsService>;

/** Room always left on a filesystem by an upload: 64 MiB, or 1% of a filesystem under 6.4 GiB. */
const FREE_SPACE_MARGIN = 64 * 1024 * 1024;

/** Bytes an upload may take on the filesystem holding `dir`: what is available, less the margin. */
async function roomAt(dir: string): Promise<number> {
  const stats = await fsp.statfs(dir);
  const margin = Math.min(FREE_SPACE_MARGIN, Math.floor((stats.blocks * stats.bsize) / 100));
  return stats.bavail * stats.bsize - margin;
}

/**
 * Resumable uploads (the tus core subset). Bytes go to a private staging file; the target is
 * replaced atomically only once every byte has arrived, so a half-finished, aborted or expired
 * upload never changes a user's files. Progress lives in the database, so uploads survive a
 * restart and continue from what is really on disk.
 */
export function createUploadsService(input: UploadContext) {
  const context: UploadContext = { ...input, repository: withLocalStaging(input.repository, input.staging) };
  const { repository, staging, locks, scopes } = context;
  const sweeper = createUploadSweeper(context);

  /** The caller's upload for a path, after the scope gate and the `create` permission. */
  async function findOwn(user: UserRecord, decodedPath: string): Promise<{ scope: Scope; virtual: string; real: string; isFolder: boolean; upload?: UploadRecord }> {
    const scope = await scopes.forUser(user);
    const resolved = await scope.resolve(decodedPath, 'write');
    if (!user.perm.create) throw forbidden();
    const upload = await repository.findByUserPath(user.id, resolved.virtual);
    return { scope, virtual: resolved.virtual, real: resolved.real, isFolder: Boolean(resolved.stat?.isDirectory()), upload };
  }

  /**
   * Refuses, with 413 as tus clients understand it, a length the target's filesystem cannot hold
   * with the margin left over; the staging filesystem needs the room too when it is another one.
   * Nothing has been written yet at this point.
   */
  async function checkFreeSpace(length: number, targetReal: string): Promise<void> {
    const anchor = await nearestExisting(path.dirname(targetReal));
    if (length > (await roomAt(anchor))) throw payloadTooLarge('the upload is larger than the free space of its disk');
    if ((await fsp.stat(anchor)).dev !== (await staging.device()) && length > (await roomAt(staging.dir))) {
      throw payloadTooLarge('the upload is larger than the free space for uploads in progress');
    }
  }

  /**
   * Gives a deferred upload the length a PATCH declares (tus 1.0: once known it cannot change).
   * The declared length must cover what has arrived and fit on the disk.
   */
  async function declareLength(upload: UploadRecord, value: HeaderValue, targetReal: string): Promise<UploadRecord> {
    const length = parseUploadLength(value, context.maxLength);
    if (isLengthKnown(upload.length)) {
      if (length !== upload.length) throw badRequest('Upload-Length cannot change');
      return upload;
    }
    if (length < upload.offset) throw badRequest('Upload-Length below the offset');
    await checkFreeSpace(length - upload.offset, targetReal);
    await repository.setLength(upload.id, length);
    return { ...upload, length };
  }

  /**
   * Appends a body to the staging file, never past `limit` bytes in all. Writing stops at once
   * when the lock is lost (another instance has taken the upload over): then nothing is
   * truncated or recorded, since the new holder owns the file and its offset from that moment.
   */
  async function writeBody(upload: UploadRecord, limit: number, body: Readable, declaredBytes: number | undefined, lock: HeldLock): Promise<{ position: number; whole: boolean }> {
    const handle = await staging.openForWrite(upload.stagingPath);
    const writer = new StagingWriter(handle, upload.offset, limit, { expectedBytes: declaredBytes ?? limit - upload.offset });
    const onLost = () => writer.destroy(new LockLostError());
    lock.signal.addEventListener('abort', onLost, { once: true });
    let whole: boolean;
    try {
      if (lock.signal.aborted) throw new LockLostError();
      whole = (await receiveBody(body, writer)) === 'complete';
    } catch (error) {
      await writer.settle();
      if (error instanceof LockLostError || lock.signal.aborted) throw locked();
      // Roll the staging file back to a size that is a true offset: the start of this request
      // for an over-long body, the last byte really written after a disk error.
      const keep = error instanceof OverLengthError ? upload.offset : writer.position;
      await handle.truncate(keep);
      await handle.sync();
      if (await lock.confirm()) await repository.setOffset(upload.id, keep, Date.now());
      throw error instanceof OverLengthError ? payloadTooLarge() : error;
    } finally {
      lock.signal.removeEventListener('abort', onLost);
      await writer.settle();
      await handle.close();
    }
    // The bytes are synced; they count once recorded, and only a holder may record them.
    if (!(await lock.confirm())) throw locked();
    await repository.setOffset(upload.id, writer.position, Date.now());
    return { position: writer.position, whole };
  }

  return {
    sweep: sweeper.sweep,
    startSweeping: sweeper.start,

    /** POST: registers an upload (or finishes a zero-length one at once). Returns its virtual path. */
    async create(user: UserRecord, decodedPath: string, request: CreateRequest): Promise<{ virtual: string }> {
      const scope = await scopes.forUser(user);
      const target = await checkTarget(user, scope, decodedPath, request.override);
      await missingParents(scope, target);
      const length = parseCreationLength(request.uploadLength, request.deferLength, context.maxLength);
      // Cheap, and it brings the staging folder back if the cache folder was cleared meanwhile.
      await staging.prepare();
      if (isLengthKnown(length)) await checkFreeSpace(length, target.real);

      const pathLock = await locks.tryAcquire(pathLockKey(user.id, target.virtual));
      if (!pathLock) throw locked();
      try {
        // A new POST for the same path replaces the user's earlier upload, unless it is being written.
        for (const previous of await repository.listByUserPath(user.id, target.virtual)) {
          const lock = await locks.tryAcquire(uploadLockKey(previous));
          if (!lock) throw locked();
          try {
            await discardUpload(context, previous);
          } finally {
            await lock.release();
          }
        }
        const id = crypto.randomUUID();
        const stagingPath = await staging.create(id);
        const now = Date.now();
        const upload: UploadRecord = { id, userId: user.id, path: target.virtual, stagingPath, length, offset: 0, override: request.override, createdAt: now, updatedAt: now };
        try {
          await repository.insert(upload);
        } catch (error) {
          await staging.discard(stagingPath);
          throw error;
        }
        // tus-js-client sends no PATCH for an empty file, so it is complete right now.
        if (length === 0) {
          const lock = await locks.tryAcquire(uploadLockKey(upload));
          if (!lock) throw locked();
          try {
            await completeUpload(context, user, scope, upload);
          } finally {
            await lock.release();
          }
        }
        return { virtual: target.virtual };
      } finally {
        await pathLock.release();
      }
    },

    /** HEAD: the offset to continue from. A full staging file left by a crash is finished here. */
    async status(user: UserRecord, decodedPath: string): Promise<UploadProgress> {
      const { scope, upload } = await findOwn(user, decodedPath);
      if (!upload) throw notFound();
      if (isFinished(upload)) return { offset: upload.length, length: upload.length };
      const lock = await locks.tryAcquire(uploadLockKey(upload));
      // A PATCH is writing: its offset is settled when it ends; report the last recorded one.
      if (!lock) return { offset: upload.offset, length: upload.length };
      try {
        // Re-read under the lock: the last holder (maybe on another instance) may have moved on.
        const stored = await repository.findById(upload.id);
        if (!stored) throw notFound();
        if (isFinished(stored)) return { offset: stored.length, length: stored.length };
        const current = await reconcileUpload(context, stored);
        if (!current) throw notFound();
        if (current.offset === current.length) await completeUpload(context, user, scope, current);
        return { offset: current.offset, length: current.length };
      } finally {
        await lock.release();
      }
    },

    /** PATCH: appends the body at `Upload-Offset`; completes the upload when it is full. */
    async append(user: UserRecord, decodedPath: string, request: AppendRequest): Promise<UploadProgress> {
      const { scope, real, upload, isFolder } = await findOwn(user, decodedPath);
      checkPatchContentType(request.contentType);
      const offset = parseUploadOffset(request.uploadOffset);
      if (!upload) throw notFound();
      if (isLengthKnown(upload.length) && offset > upload.length) throw badRequest('offset beyond the upload length');
      if (isFolder) throw badRequest('target is a folder');

      const lock = await locks.tryAcquire(uploadLockKey(upload));
      if (!lock) throw locked();
      try {
        // Re-read under the lock: a POST or DELETE may have replaced it since the lookup.
        const stored = await repository.findById(upload.id);
        const reconciled = stored && (await reconcileUpload(context, stored));
        if (!reconciled) throw notFound();
        if (offset !== reconciled.offset) throw conflict();
        if (isFinished(reconciled)) return { offset: reconciled.length, length: reconciled.length };
        const current = request.uploadLength === undefined ? reconciled : await declareLength(reconciled, request.uploadLength, real);
        const known = isLengthKnown(current.length);
        // Until its length is known an upload may grow to the largest length allowed.
        const limit = known ? current.length : context.maxLength;
        const remaining = limit - current.offset;
        if (request.contentLength !== undefined && request.contentLength > remaining) throw payloadTooLarge();

        const written = remaining > 0 ? await writeBody(current, limit, request.body, request.contentLength, lock) : { position: current.offset, whole: true };
        const reached = written.position;
        if (known) {
          if (reached === current.length) await completeUpload(context, user, scope, { ...current, offset: reached });
          return { offset: reached, length: current.length };
        }
        // filebrowser 2.31's front end never tells the length: it sends every chunk at the size the
        // settings give and only the last one shorter. A body that arrived whole and is shorter
        // than that size therefore ends the upload (an empty file sends one empty body).
        const sent = reached - current.offset;
        if (current.length === UNDECLARED_LENGTH && written.whole && request.contentLength === sent && sent < context.chunkSize()) {
          await repository.setLength(current.id, reached);
          await completeUpload(context, user, scope, { ...current, length: reached, offset: reached });
          return { offset: reached, length: reached };
        }
        return { offset: reached, length: current.length };
      } finally {
        await lock.release();
      }
    },

    /** DELETE: abandons an upload and its staging file; the target is left as it is. */
    async cancel(user: UserRecord, decodedPath: string): Promise<void> {
      const scope = await scopes.forUser(user);
      const resolved = await scope.resolve(decodedPath, 'delete');
      if (resolved.virtual === '/' || !user.perm.delete) throw forbidden();
      const upload = await repository.findByUserPath(user.id, resolved.virtual);
      if (!upload) throw notFound();
      const lock = await locks.acquireWithin(uploadLockKey(upload), TerminateLockWaitMs);
      if (!lock) throw locked();
      try {
        // The writer that held the lock may have finished or replaced the upload meanwhile.
        const current = await repository.findById(upload.id);
        if (!current) throw notFound();
        await discardUpload(context, current);
      } finally {
        await lock.release();
      }
    },
  };
}

/** The closest folder at or above `dir` that exists (for free-space checks before mkdir). */
async function nearestExisting(dir: string): Promise<string> {
  let current = dir;
  for (;;) {
    try {
      await fsp.stat(current);
      return current;
    } catch (error) {
      const parent = path.dirname(current);
      if (parent === current) throw error;
      current = parent;
    }
  }
}
