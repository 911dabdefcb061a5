import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { renameIntoPlace, stagingPathFor } from '../../storage/staging-place.js';
import { StagingWriter } from '../../storage/staging-writer.js';

/** Makes a rename in `folder` durable; best effort (some filesystems refuse to sync folders). */
export async function syncFolder(folder: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    await handle.sync();
  } catch {
    // the data itself is already synced; only the directory entry's durability is at stake
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export type AtomicWriteOptions = {
  /** Mode of a new file (the umask applies, as for any created file). */
  fileMode: number;
  /** Exact permission bits to give the result instead (kept from the file being replaced). */
  keepMode?: number;
  /** Sync the folder after the rename (a tree copy syncs each folder once instead). */
  syncFolder?: boolean;
  /** The body's size, when known beforehand. */
  expectedBytes?: number;
  /**
   * The server's private staging folder (see `privateStagingDir`). Without it, or when it is on
   * another filesystem than the target, the staging file goes beside the target under a name no
   * user can create or see.
   */
  stagingDir?: string;
};

/**
 * Streams `body` into a staging file, fsyncs it and renames it over the target.
 * Readers see either the old file or the complete new one. On any failure, including the client
 * going away mid-body, the staging file is removed and the target is left as it was. The staging
 * file is created exclusively, so a link planted at its name can never be written through. Bytes
 * go to disk in large batches, flushed in the background while the rest arrives, so the final
 * fsync of a big body waits only for its tail. Returns the stat of the written file (bigint, for
 * the ETag's nanoseconds). Large bodies are written past the page cache (see the staging writer).
 */
export async function writeAtomically(target: string, body: AsyncIterable<Buffer | string> | Readable, options: AtomicWriteOptions): Promise<fs.BigIntStats> {
  const staging = await stagingPathFor(target, options.stagingDir);
  const handle = await fsp.open(staging, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, options.fileMode);
  // The final fsync also covers a kept mode, set before any byte is written.
  const writer = new StagingWriter(handle, 0, Number.MAX_SAFE_INTEGER, { finalSync: 'all', expectedBytes: options.expectedBytes });
  let closed = false;
  try {
    if (options.keepMode !== undefined) await handle.chmod(options.keepMode);
    await pipeline(body, writer);
    const stat = await handle.stat({ bigint: true });
    closed = true;
    await handle.close();
    await renameIntoPlace(staging, target);
    if (options.syncFolder !== false) await syncFolder(path.dirname(target));
    return stat;
  } catch (error) {
    if (!closed) {
      await writer.settle();
      await handle.close().catch(() => undefined);
    }
    await fsp.unlink(staging).catch(() => undefined);
    throw error;
  }
}

/**
 * Copies a regular file atomically (staging file, fsync, rename). The source is opened without
 * following a link at its last component and must still be a regular file once open, so a swap
 * for a link or a pipe after the caller's checks cannot redirect the read.
 */
export async function copyFileAtomically(source: string, target: string, mode: number, stagingDir?: string): Promise<boolean> {
  let input: fsp.FileHandle;
  try {
    input = await fsp.open(source, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return false;
    throw error;
  }
  try {
    const stat = await input.stat();
    if (!stat.isFile()) return false;
    await writeAtomically(target, input.createReadStream({ autoClose: false, highWaterMark: 1024 * 1024 }), { fileMode: mode, keepMode: mode, syncFolder: false, expectedBytes: stat.size, stagingDir });
    return true;
  } finally {
    await input.close().catch(() => undefined);
  }
}
