import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Where files are written before they are renamed into place. Users can create any name in
 * their folders, so no name beside a target may be reserved for the server: a file being written
 * goes to a folder of the server's own under the cache folder, and is renamed over its target
 * once complete.
 */

/** The server's private folder for files being written: tus uploads and replacing writes. */
export function privateStagingDir(cacheDir: string): string {
  return path.join(cacheDir, 'uploads');
}

/** Names of staged writes in the private folder (tus uploads there are `<uuid>.part`). */
export const WRITE_STAGING_NAME = /^[0-9a-f]{32}\.write$/;

/**
 * A fresh path beside `target` that no user can create or see. A rename only works within one
 * filesystem, so when the private folder lies on another one the bytes must be staged beside the
 * target instead. The name starts with the byte 0xFF, which never occurs in UTF-8: every name
 * that reaches the server (HTTP, WebDAV, archives) is a JavaScript string and lands on the disk
 * as valid UTF-8, so none can equal it, and anything that lists a folder reads the name back as
 * U+FFFD, whose bytes differ, so the entry cannot be opened, listed or archived under that name.
 */
export function hiddenSiblingPath(target: string): Buffer {
  const folder = path.dirname(target);
  return Buffer.concat([Buffer.from(folder.endsWith(path.sep) ? folder : folder + path.sep), Buffer.from([0xff]), Buffer.from(`burrow-${crypto.randomBytes(8).toString('hex')}`)]);
}

/**
 * A fresh staging path for a file bound for `target`: in the private folder when that folder is
 * on the target's filesystem, otherwise beside the target under a hidden name (see above). Copying
 * the finished file across instead would read and write every byte a second time.
 */
export async function stagingPathFor(target: string, privateDir: string | undefined): Promise<string | Buffer> {
  if (privateDir) {
    try {
      // Made again when the cache folder was cleared while the server runs.
      await fsp.mkdir(privateDir, { recursive: true, mode: 0o700 });
      const [own, folder] = await Promise.all([fsp.stat(privateDir), fsp.stat(path.dirname(target))]);
      if (own.dev === folder.dev) return path.join(privateDir, `${crypto.randomBytes(16).toString('hex')}.write`);
    } catch {
      // No private folder to be had, or the target's folder cannot be read: beside the target.
    }
  }
  return hiddenSiblingPath(target);
}

/**
 * Renames a complete staging file over `target`. The same device can still be two mounts (a
 * bind mount), where rename fails with EXDEV: the file is then copied to a hidden name beside the
 * target, synced, and renamed from there, so the switch itself stays atomic.
 */
export async function renameIntoPlace(staging: string | Buffer, target: string): Promise<void> {
  try {
    await fsp.rename(staging, target);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const sibling = hiddenSiblingPath(target);
  try {
    await fsp.copyFile(staging, sibling, fs.constants.COPYFILE_EXCL);
    const handle = await fsp.open(sibling, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(sibling, target);
  } catch (error) {
    await fsp.unlink(sibling).catch(() => undefined);
    throw error;
  }
  await fsp.unlink(staging).catch(() => undefined);
}
