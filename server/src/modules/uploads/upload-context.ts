import path from 'node:path';
import type { Config } from '../../config.js';
import type { Cluster } from '../../storage/cluster.js';
import type { FileEvents } from '../../storage/file-events.js';
import type { Scopes } from '../../storage/scopes.js';
import type { UserRecord } from '../users/users.model.js';
import type { UploadLocks } from './upload-locks.js';
import type { UploadRecord, UploadsRepository } from './uploads.repository.js';
import type { StagingArea } from './staging.js';

/** The hook runner (`settings.commands`) as uploads use it: the `upload` events only. */
export type UploadHooks = {
  run(event: 'before_upload' | 'after_upload', context: { user: Pick<UserRecord, 'username' | 'scope'>; file: string }): Promise<void>;
};

export type UploadsLog = {
  info: (object: unknown, message: string) => void;
  warn: (object: unknown, message: string) => void;
  error: (object: unknown, message: string) => void;
};

/** What the upload use-cases share. */
export type UploadContext = {
  config: Config;
  scopes: Scopes;
  fileEvents: FileEvents;
  repository: UploadsRepository;
  staging: StagingArea;
  locks: UploadLocks;
  hooks?: UploadHooks;
  log: UploadsLog;
  maxLength: number;
  /** The tus chunk size the settings give clients (a shorter PATCH body is an upload's last). */
  chunkSize: () => number;
  /**
   * The instances sharing the database. When it is `shared` (PostgreSQL), other instances write
   * uploads too: the offset recorded in the database, not the staging file's size, says which
   * bytes were kept (see `reconcileUpload`), and the sweep runs on one instance per period.
   */
  cluster?: Pick<Cluster, 'shared' | 'once'>;
};

/**
 * The repository with every upload's staging file named in this instance's staging folder.
 * Instances that share the cache folder may mount it at different places: the row's stored path
 * is where its creator saw it, while the file has the same name for everybody. (A name the
 * staging area did not make is never touched: see `StagingArea.owns`.)
 */
export function withLocalStaging(repository: UploadsRepository, staging: Pick<StagingArea, 'dir'>): UploadsRepository {
  const local = (upload: UploadRecord): UploadRecord => (upload.stagingPath ? { ...upload, stagingPath: path.join(staging.dir, path.basename(upload.stagingPath)) } : upload);
  return {
    ...repository,
    findByUserPath: async (userId, path) => {
      const upload = await repository.findByUserPath(userId, path);
      return upload && local(upload);
    },
    listByUserPath: async (userId, path) => (await repository.listByUserPath(userId, path)).map(local),
    findById: async (id) => {
      const upload = await repository.findById(id);
      return upload && local(upload);
    },
    list: async () => (await repository.list()).map(local),
  };
}

/** Lock key of one upload (writers, completion, cancellation and expiry all take it). */
export const uploadLockKey = (upload: Pick<UploadRecord, 'id'>) => `upload:${upload.id}`;

/** Lock key of a (user, path) pair while a POST replaces what was there. */
export const pathLockKey = (userId: number, virtual: string) => `path:${userId}:${virtual}`;

/** Forgets an upload: its staging file (if any) and its row. */
export async function discardUpload(context: UploadContext, upload: UploadRecord): Promise<void> {
  if (upload.stagingPath) await context.staging.discard(upload.stagingPath);
  await context.repository.remove(upload.id);
}

/**
 * Brings a stored offset in line with the staging file. Call it holding the upload's lock.
 * With one instance the file is the source of truth up to the declared length (a crash can
 * leave more bytes on disk than the last recorded offset, all of them the upload's, in order).
 * When instances share the uploads, bytes past the recorded offset may come from a holder that
 * died or lost its lock while writing them, so only the recorded offset (set after the bytes
 * were synced, by the holder of the lock) is trusted and the rest is cut off. Returns undefined,
 * after forgetting the upload, when its staging file is gone.
 */
export async function reconcileUpload(context: UploadContext, upload: UploadRecord): Promise<UploadRecord | undefined> {
  if (!upload.stagingPath) return upload;
  let size = await context.staging.sizeOf(upload.stagingPath);
  if (size === undefined) {
    await discardUpload(context, upload);
    return undefined;
  }
  if (context.cluster?.shared && size > upload.offset) {
    await context.staging.truncate(upload.stagingPath, upload.offset);
    size = upload.offset;
  }
  if (upload.length >= 0 && size > upload.length) {
    await context.staging.truncate(upload.stagingPath, upload.length);
    size = upload.length;
  }
  if (size !== upload.offset) {
    await context.repository.setOffset(upload.id, size, upload.updatedAt);
    return { ...upload, offset: size };
  }
  return upload;
}
