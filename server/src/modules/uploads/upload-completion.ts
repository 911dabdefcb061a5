import fsp from 'node:fs/promises';
import path from 'node:path';
import { badRequest, conflict, forbidden } from '../../errors.js';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import { parentOf } from '../../storage/virtual-path.js';
import type { UserRecord } from '../users/users.model.js';
import { discardUpload, type UploadContext } from './upload-context.js';
import type { UploadRecord } from './uploads.repository.js';
import { placeFile } from './place-file.js';

type Folder = { real: string; virtual: string };

/**
 * Resolves an upload target through the scope gate (rules, confinement, no link at the target)
 * and applies the permission and conflict checks shared by creation and completion.
 */
export async function checkTarget(user: UserRecord, scope: Scope, decodedPath: string, override: boolean): Promise<ResolvedPath> {
  const target = await scope.resolve(decodedPath, 'write');
  if (!user.perm.create) throw forbidden();
  if (target.virtual === '/' || target.trailingSlash || target.stat?.isDirectory()) throw badRequest('target is a folder');
  if (target.stat && !override) throw conflict();
  if (target.stat && !user.perm.modify) throw forbidden();
  return target;
}

/**
 * The folders between the scope root and the target that do not exist yet, outermost first.
 * An ancestor that exists but is not a folder can never hold the target: 400.
 */
export async function missingParents(scope: Scope, target: ResolvedPath): Promise<Folder[]> {
  const missing: Folder[] = [];
  let real = path.dirname(target.real);
  let virtual = parentOf(target.virtual);
  while (real !== scope.root && scope.isInside(real)) {
    try {
      const stat = await fsp.lstat(real);
      if (!stat.isDirectory()) throw badRequest('a parent folder is a file');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    missing.unshift({ real, virtual });
    real = path.dirname(real);
    virtual = parentOf(virtual);
  }
  return missing;
}

/**
 * Replaces the target with a complete upload. Everything is checked again at this moment (rules
 * or permissions may have changed, a file may have appeared, a folder may have been swapped for a
 * link). A failure forgets the upload: its bytes can no longer land anywhere, and a client asking
 * for the offset must not be told it finished.
 */
export async function completeUpload(context: UploadContext, user: UserRecord, scope: Scope, upload: UploadRecord): Promise<void> {
  let placed: { target: ResolvedPath; existed: boolean; createdFolders: Folder[] };
  try {
    placed = await placeUpload(context, user, scope, upload, (file) => runHook(context, 'before_upload', user, file));
    await context.repository.markFinished(upload.id, Date.now());
  } catch (error) {
    await discardUpload(context, upload).catch((cleanupError: unknown) =>
      context.log.error({ err: cleanupError, upload: upload.id }, 'could not discard a failed upload'),
    );
    throw error;
  }

  const { target, existed, createdFolders } = placed;
  for (const folder of createdFolders) {
    await context.fileEvents.emit({ kind: 'created', user, real: folder.real, virtual: folder.virtual, isDir: true });
  }
  await context.fileEvents.emit(
    existed
      ? { kind: 'modified', user, real: target.real, virtual: target.virtual }
      : { kind: 'created', user, real: target.real, virtual: target.virtual, isDir: false },
  );
  await runHook(context, 'after_upload', user, target.real);
}

/**
 * The `upload` hooks run around the moment the file appears, as for uploads through the
 * resources API. The bytes are already here, so a failing hook is logged and never undoes or
 * blocks the upload.
 */
async function runHook(context: UploadContext, event: 'before_upload' | 'after_upload', user: UserRecord, file: string): Promise<void> {
  if (!context.hooks) return;
  try {
    await context.hooks.run(event, { user, file });
  } catch (error) {
    context.log.warn({ err: error, event }, 'upload hook failed');
  }
}

async function placeUpload(context: UploadContext, user: UserRecord, scope: Scope, upload: UploadRecord, beforeHook: (file: string) => Promise<void>) {
  const first = await checkTarget(user, scope, upload.path, upload.override);
  await beforeHook(first.real);
  const createdFolders = await missingParents(scope, first);
  if (createdFolders.length > 0) await scope.ensureParent(first, context.config.dirMode);
  // Resolve once more now that the parents exist (and the hook has run): confinement is then
  // checked on their real paths.
  const target = await checkTarget(user, scope, upload.path, upload.override);
  // A replaced file keeps its permission bits, as with saves through the resources API.
  await placeFile(upload.stagingPath, target.real, upload.override, target.stat ? target.stat.mode & 0o7777 : undefined);
  return { target, existed: Boolean(target.stat), createdFolders };
}
