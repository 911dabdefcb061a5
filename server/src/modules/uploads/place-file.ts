import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { conflict } from '../../errors.js';
import { hiddenSiblingPath } from '../../storage/staging-place.js';

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** Errors meaning "this filesystem cannot make hard links here"; a rename is used instead. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * Puts a complete staging file at `target` in one atomic step: readers see the old file or the
 * new one, never a mix. The data is synced before the switch and the folder after it. A file
 * that replaces another takes over its permission bits (`keepMode`).
 *
 * - `override`: rename over the target (a link sitting there is replaced, never followed).
 * - otherwise: hard-link into place, which fails when a name appeared meanwhile (409) instead
 *   of clobbering it; the staging name is then unlinked.
 * - staging and target on different filesystems (EXDEV): the bytes are copied to a temporary
 *   file beside the target first, under a name no user can create or see, which is removed on
 *   any failure.
 */
export async function placeFile(stagingPath: string, target: string, override: boolean, keepMode?: number): Promise<void> {
  await syncRegularFile(stagingPath, keepMode);
  try {
    await switchInto(stagingPath, target, override);
  } catch (error) {
    if (code(error) !== 'EXDEV') throw error;
    await copyAcross(stagingPath, target, override);
    await fsp.unlink(stagingPath).catch(() => undefined);
  }
  await syncFolder(path.dirname(target));
}

async function switchInto(source: string | Buffer, target: string, override: boolean): Promise<void> {
  if (override) {
    await fsp.rename(source, target);
    return;
  }
  try {
    await fsp.link(source, target);
  } catch (error) {
    if (code(error) === 'EEXIST') throw conflict();
    if (!NO_HARD_LINKS.has(code(error) ?? '')) throw error;
    // No hard links on this filesystem: the existence check and the rename are two steps.
    if (await exists(target)) throw conflict();
    await fsp.rename(source, target);
    return;
  }
  await fsp.unlink(source);
}

async function copyAcross(stagingPath: string, target: string, override: boolean): Promise<void> {
  const temporary = hiddenSiblingPath(target);
  try {
    await fsp.copyFile(stagingPath, temporary, fs.constants.COPYFILE_EXCL);
    await syncRegularFile(temporary);
    await switchInto(temporary, target, override);
  } catch (error) {
    await fsp.unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * fsyncs a file, refusing anything but a regular file (a link swapped in is not followed), and
 * gives it `mode` first when set.
 */
async function syncRegularFile(file: string | Buffer, mode?: number): Promise<void> {
  const handle = await fsp.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('staging entry is not a regular file');
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename in `dir` durable. Some filesystems refuse to sync folders; that is harmless. */
async function syncFolder(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fsp.open(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fsp.lstat(file);
    return true;
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
}
