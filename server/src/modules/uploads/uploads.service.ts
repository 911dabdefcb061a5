import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { badRequest, conflict, forbidden, insufficientStorage, locked, notFound, payloadTooLarge } from '../../errors.js';
import type { Scope } from '../../storage/scoped-fs.js';
import type { UserRecord } from '../users/users.model.js';
import { OverLengthError, StagingWriter } from '../../storage/staging-writer.js';
import { receiveBody } from './body-writer.js';
import { checkTarget, completeUpload, missingParents } from './upload-completion.js';
import { discardUpload, pathLockKey, reconcileUpload, uploadLockKey, type UploadContext } from './upload-context.js';
import { isFinished, type UploadRecord } from './uploads.repository.js';
import { freeBytesAt } from './staging.js';
import { checkPatchContentType, parseUploadLength, parseUploadOffset } from './tus-headers.js';
import { createUploadSweeper } from './upload-sweeper.js';

/** How long a DELETE waits for a PATCH of the same upload to notice its client went away. */
const TerminateLockWaitMs = 3000;

type HeaderValue = string | string[] | undefined;

export type CreateRequest = { uploadLength: HeaderValue; override: boolean };
export type AppendRequest = { contentType: HeaderValue; uploadOffset: HeaderValue; contentLength: number | undefined; body: Readable };
export type UploadProgress = { offset: number; length: number };

export type UploadsService = ReturnType<typeof createUploadsService>;

/**
 * Resumable uploads (the tus core subset). Bytes go to a private staging file; the target is
 * replaced atomically only once every byte has arrived, so a half-finished, aborted or expired
 * upload never changes a user's files. Progress lives in the database, so uploads survive a
 * restart and continue from what is really on disk.
 */
export function createUploadsService(context: UploadContext) {
  const { repository, staging, locks, scopes } = context;
  const sweeper = createUploadSweeper(context);

  /** The caller's upload for a path, after the scope gate and the `create` permission. */
  async function findOwn(user: UserRecord, decodedPath: string): Promise<{ scope: Scope; virtual: string; isFolder: boolean; upload?: UploadRecord }> {
    const scope = await scopes.forUser(user);
    const resolved = await scope.resolve(decodedPath, 'write');
    if (!user.perm.create) throw forbidden();
    const upload = await repository.findByUserPath(user.id, resolved.virtual);
    return { scope, virtual: resolved.virtual, isFolder: Boolean(resolved.stat?.isDirectory()), upload };
  }

  /** Refuses lengths the disks cannot hold: staging needs the room, and so does the target's
   * filesystem when it is a different one (the bytes are then copied there at the end). */
  async function checkFreeSpace(length: number, targetReal: string): Promise<void> {
    if (length > (await staging.freeBytes())) throw insufficientStorage();
    const anchor = await nearestExisting(path.dirname(targetReal));
    const stagingDevice = await staging.device();
    if ((await fsp.stat(anchor)).dev !== stagingDevice && length > (await freeBytesAt(anchor))) throw insufficientStorage();
  }

  async function writeBody(upload: UploadRecord, body: Readable, declaredBytes: number | undefined): Promise<number> {
    const handle = await staging.openForWrite(upload.stagingPath);
    const writer = new StagingWriter(handle, upload.offset, upload.length, { expectedBytes: declaredBytes ?? upload.length - upload.offset });
    try {
      await receiveBody(body, writer);
    } catch (error) {
      // Roll the staging file back to a size that is a true offset: the start of this request
      // for an over-long body, the last byte really written after a disk error.
      const keep = error instanceof OverLengthError ? upload.offset : writer.position;
      await writer.settle();
      await handle.truncate(keep);
      await handle.sync();
      await repository.setOffset(upload.id, keep, Date.now());
      throw error instanceof OverLengthError ? payloadTooLarge() : error;
    } finally {
      await writer.settle();
      await handle.close();
    }
    await repository.setOffset(upload.id, writer.position, Date.now());
    return writer.position;
  }

  return {
    sweep: sweeper.sweep,
    startSweeping: sweeper.start,

    /** POST: registers an upload (or finishes a zero-length one at once). Returns its virtual path. */
    async create(user: UserRecord, decodedPath: string, request: CreateRequest): Promise<{ virtual: string }> {
      const scope = await scopes.forUser(user);
      const target = await checkTarget(user, scope, decodedPath, request.override);
      await missingParents(scope, target);
      const length = parseUploadLength(request.uploadLength, context.maxLength);
      // Cheap, and it brings the staging folder back if the cache folder was cleared meanwhile.
      await staging.prepare();
      await checkFreeSpace(length, target.real);

      const releasePath = locks.tryAcquire(pathLockKey(user.id, target.virtual));
      if (!releasePath) throw locked();
      try {
        // A new POST for the same path replaces the user's earlier upload, unless it is being written.
        for (const previous of await repository.listByUserPath(user.id, target.virtual)) {
          const release = locks.tryAcquire(uploadLockKey(previous));
          if (!release) throw locked();
          try {
            await discardUpload(context, previous);
          } finally {
            release();
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
          const release = locks.tryAcquire(uploadLockKey(upload))!;
          try {
            await completeUpload(context, user, scope, upload);
          } finally {
            release();
          }
        }
        return { virtual: target.virtual };
      } finally {
        releasePath();
      }
    },

    /** HEAD: the offset to continue from. A full staging file left by a crash is finished here. */
    async status(user: UserRecord, decodedPath: string): Promise<UploadProgress> {
      const { scope, upload } = await findOwn(user, decodedPath);
      if (!upload) throw notFound();
      if (isFinished(upload)) return { offset: upload.length, length: upload.length };
      const release = locks.tryAcquire(uploadLockKey(upload));
      // A PATCH is writing: its offset is settled when it ends; report the last recorded one.
      if (!release) return { offset: upload.offset, length: upload.length };
      try {
        const current = await reconcileUpload(context, upload);
        if (!current) throw notFound();
        if (current.offset === current.length) await completeUpload(context, user, scope, current);
        return { offset: current.offset, length: current.length };
      } finally {
        release();
      }
    },

    /** PATCH: appends the body at `Upload-Offset`; completes the upload when it is full. */
    async append(user: UserRecord, decodedPath: string, request: AppendRequest): Promise<UploadProgress> {
      const { scope, upload, isFolder } = await findOwn(user, decodedPath);
      checkPatchContentType(request.contentType);
      const offset = parseUploadOffset(request.uploadOffset);
      if (!upload) throw notFound();
      if (offset > upload.length) throw badRequest('offset beyond the upload length');
      if (isFolder) throw badRequest('target is a folder');

      const release = locks.tryAcquire(uploadLockKey(upload));
      if (!release) throw locked();
      try {
        // Re-read under the lock: a POST or DELETE may have replaced it since the lookup.
        const stored = await repository.findById(upload.id);
        const current = stored && (await reconcileUpload(context, stored));
        if (!current) throw notFound();
        if (offset !== current.offset) throw conflict();
        const remaining = current.length - current.offset;
        if (request.contentLength !== undefined && request.contentLength > remaining) throw payloadTooLarge();
        if (isFinished(current)) return { offset: current.length, length: current.length };

        const reached = remaining > 0 ? await writeBody(current, request.body, request.contentLength) : current.offset;
        if (reached === current.length) await completeUpload(context, user, scope, { ...current, offset: reached });
        return { offset: reached, length: current.length };
      } finally {
        release();
      }
    },

    /** DELETE: abandons an upload and its staging file; the target is left as it is. */
    async cancel(user: UserRecord, decodedPath: string): Promise<void> {
      const scope = await scopes.forUser(user);
      const resolved = await scope.resolve(decodedPath, 'delete');
      if (resolved.virtual === '/' || !user.perm.delete) throw forbidden();
      const upload = await repository.findByUserPath(user.id, resolved.virtual);
      if (!upload) throw notFound();
      const release = await locks.acquireWithin(uploadLockKey(upload), TerminateLockWaitMs);
      if (!release) throw locked();
      try {
        // The writer that held the lock may have finished or replaced the upload meanwhile.
        const current = await repository.findById(upload.id);
        if (!current) throw notFound();
        await discardUpload(context, current);
      } finally {
        release();
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
