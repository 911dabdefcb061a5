import type { Config } from '../../config.js';
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
};

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
 * Brings a stored offset in line with the staging file, which is the source of truth up to the
 * declared length (a crash can leave more bytes on disk than the last recorded offset). Returns
 * undefined, after forgetting the upload, when its staging file is gone.
 */
export async function reconcileUpload(context: UploadContext, upload: UploadRecord): Promise<UploadRecord | undefined> {
  if (!upload.stagingPath) return upload;
  let size = await context.staging.sizeOf(upload.stagingPath);
  if (size === undefined) {
    await discardUpload(context, upload);
    return undefined;
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
