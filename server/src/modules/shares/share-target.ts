import fsp from 'node:fs/promises';
import type { TargetIdentity } from './shares.model.js';

/**
 * The identity of what lies at `real` (links followed): its device and inode, read as bigints so
 * that large inode numbers stay exact, and its birth time when the filesystem reports one (Node
 * reads it with statx; 0 means none). Undefined when nothing is there any more.
 *
 * A link stands for the item it was made for, not for whatever later takes its path: a file
 * deleted and written again, or replaced by a rename, outside Burrow is a new item. Edits made
 * through Burrow replace files too (writes are atomic renames); those record the new identity as
 * they happen (see share-lifecycle), and renames keep the inode.
 */
export async function targetIdentity(real: string): Promise<TargetIdentity | undefined> {
  try {
    const stat = await fsp.stat(real, { bigint: true });
    const identity: TargetIdentity = { dev: stat.dev.toString(), ino: stat.ino.toString() };
    if (stat.birthtimeNs > 0n) identity.birth = stat.birthtimeNs.toString();
    return identity;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined;
    throw error;
  }
}
