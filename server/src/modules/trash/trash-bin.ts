import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Name of the per-filesystem trash folder made at the top of a filesystem (see `placeInTrash`). */
export const FilesystemTrashName = '.burrow-trash';

const isSameOrBelow = (parent: string, child: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

async function lstatOrUndefined(real: string): Promise<fs.Stats | undefined> {
  try {
    return await fsp.lstat(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Bytes held by an entry, a folder counted with everything below it; links are not followed. */
export async function entrySize(real: string): Promise<number> {
  const stat = await lstatOrUndefined(real);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  let total = 0;
  let names: string[];
  try {
    names = await fsp.readdir(real);
  } catch {
    return 0;
  }
  for (const name of names) total += await entrySize(path.join(real, name));
  return total;
}

/** The top folder of the filesystem `real` lies on: the last ancestor on the same device. */
async function filesystemTop(real: string): Promise<string> {
  const device = (await fsp.lstat(real)).dev;
  let current = path.dirname(real);
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) return current;
    const stat = await fsp.stat(parent);
    if (stat.dev !== device) return current;
    current = parent;
  }
}

/**
 * Copies `from` to `to` without following links (links are recreated as they are, special files
 * skipped): the fallback when no rename can carry an entry across.
 */
async function copyEntry(from: string, to: string): Promise<void> {
  const stat = await fsp.lstat(from);
  if (stat.isDirectory()) {
    await fsp.mkdir(to, { mode: stat.mode & 0o7777 });
    for (const name of await fsp.readdir(from)) await copyEntry(path.join(from, name), path.join(to, name));
    return;
  }
  if (stat.isSymbolicLink()) {
    await fsp.symlink(await fsp.readlink(from), to);
    return;
  }
  if (stat.isFile()) {
    await fsp.copyFile(from, to, fs.constants.COPYFILE_EXCL);
    await fsp.chmod(to, stat.mode & 0o7777);
  }
}

/**
 * Moves `from` to `to` (which must not exist) by rename, or across filesystems by copy and then
 * removal of the source. A failed copy leaves the source whole and takes its partial copy away.
 */
export async function moveAcross(from: string, to: string): Promise<void> {
  try {
    await fsp.rename(from, to);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  try {
    await copyEntry(from, to);
  } catch (error) {
    await fsp.rm(to, { recursive: true, force: true });
    throw error;
  }
  await fsp.rm(from, { recursive: true, force: false });
}

export type TrashPlaces = {
  /** `<cacheDir>/trash`: the usual home of every user's trash. */
  cacheTrash: string;
  /** The server root's real path: no trash folder may lie inside it, where a scope could reach. */
  serverRoot: string;
  dirMode: number;
};

/** Makes a user's trash folder (owner-only: deleted files keep no wider access than the cache). */
async function ensureFolder(folder: string): Promise<void> {
  await fsp.mkdir(folder, { recursive: true, mode: 0o700 });
}

/**
 * Moves the entry at `real` into the trash of `userId` under the name `id` and answers where it
 * now is. In order:
 *
 * 1. `<cacheDir>/trash/<userId>/<id>`, by rename: instant and atomic whatever the item's size.
 * 2. When the cache folder is on another filesystem (EXDEV) — a root on a separate disk is common
 *    — a rename is still possible into `<top of the item's filesystem>/.burrow-trash/<userId>`,
 *    provided that folder lies outside the server root (otherwise a scope could list it) and can
 *    be made. Copying a large folder across disks would make a delete slow and need free space
 *    on the cache disk, which a rename on the same disk does not.
 * 3. When neither works (the filesystem's top is inside the root, read-only or not ours), the item
 *    is copied into the cache trash and then removed from its place.
 *
 * A cache folder inside the server root is not used at all; the second place, then a plain
 * removal answer (`undefined`), stand in for it, since a copy there would be visible too.
 */
export async function placeInTrash(places: TrashPlaces, userId: number, real: string, id: string): Promise<string | undefined> {
  const cacheUsable = !isSameOrBelow(places.serverRoot, places.cacheTrash);
  const cacheFolder = path.join(places.cacheTrash, String(userId));
  if (cacheUsable) {
    await ensureFolder(cacheFolder);
    const target = path.join(cacheFolder, id);
    try {
      await fsp.rename(real, target);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
  }

  const top = await filesystemTop(real);
  const filesystemFolder = path.join(top, FilesystemTrashName, String(userId));
  if (!isSameOrBelow(places.serverRoot, filesystemFolder) && !isSameOrBelow(filesystemFolder, places.serverRoot)) {
    try {
      await ensureFolder(filesystemFolder);
      const target = path.join(filesystemFolder, id);
      await fsp.rename(real, target);
      return target;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw error;
    }
  }

  if (!cacheUsable) return undefined;
  const target = path.join(cacheFolder, id);
  await moveAcross(real, target);
  return target;
}

/** Removes a kept item for good; one already gone is fine. */
export async function removeStored(stored: string): Promise<void> {
  await fsp.rm(stored, { recursive: true, force: true });
}
