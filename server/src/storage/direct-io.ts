import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import { addressOf } from './libc.js';

/**
 * Direct writes (`O_DIRECT`) for large bodies. A body that is fsynced before its answer gains
 * nothing from the page cache: copying it there first costs a fresh page for every 4 KiB, which
 * on a busy or memory-tight host is most of the CPU an upload takes, and it pushes out cached
 * files that readers want. A direct write hands the bytes from one reused buffer to the disk.
 *
 * Direct writes need the buffer's address, the file offset and the length aligned to the device's
 * block size; 4 KiB covers every common device. Whatever cannot be had (no binding to learn an
 * address, a filesystem that refuses `O_DIRECT`) makes the caller write through the page cache.
 */
export const DirectAlignment = 4096;

/** The most gathered for one direct write: large enough for the disk's full speed. */
export const DirectStageBytes = 2 * 1024 * 1024;

// Each writer holds two stage buffers while it writes; idle ones are kept for the next body, so
// their pages stay mapped instead of being faulted in again for every upload.
const IdleKept = 8;
const idle: Buffer[] = [];
/** Cleared once a buffer's address turned out not to be learnable, so no more are allocated in vain. */
let addressable = true;

/** A stage buffer whose first byte sits on an aligned address; null where the address cannot be learnt. */
export function takeStageBuffer(): Buffer | null {
  const kept = idle.pop();
  if (kept) return kept;
  if (!addressable) return null;
  const backing = Buffer.allocUnsafeSlow(DirectStageBytes + DirectAlignment);
  const address = addressOf(backing);
  if (address === null) {
    addressable = false;
    return null;
  }
  const skip = Number((BigInt(DirectAlignment) - (address % BigInt(DirectAlignment))) % BigInt(DirectAlignment));
  return backing.subarray(skip, skip + DirectStageBytes);
}

/** Gives a stage buffer back once no write reads from it any more. */
export function returnStageBuffer(buffer: Buffer): void {
  if (idle.length < IdleKept) idle.push(buffer);
}

/**
 * A second handle on an open file that writes directly to the disk, or null where that is not
 * possible. It is opened through the process's own descriptor, so it is the very file the first
 * handle has open, whatever happened to its name meanwhile.
 */
export async function openDirect(handle: FileHandle): Promise<FileHandle | null> {
  const flag = fs.constants.O_DIRECT;
  if (process.platform !== 'linux' || !flag) return null;
  try {
    return await fsp.open(`/proc/self/fd/${handle.fd}`, fs.constants.O_WRONLY | flag);
  } catch {
    return null;
  }
}

/** The first aligned offset at or after `offset`. */
export function alignUp(offset: number): number {
  return Math.ceil(offset / DirectAlignment) * DirectAlignment;
}
