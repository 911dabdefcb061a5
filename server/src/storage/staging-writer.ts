import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { startWriteback } from './writeback.js';

/** The body carried more bytes than the upload has left. */
export class OverLengthError extends Error {
  constructor() {
    super('body exceeds the declared upload length');
    this.name = 'OverLengthError';
  }
}

// Large enough that writev batches many socket reads into one system call, small enough that a
// slow disk pushes back on the sender long before memory grows.
const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

// Every body ends with an fsync before its answer. Starting the flush of what has been written
// so far while the rest is still arriving overlaps disk and network, so that final fsync only
// waits for the tail instead of the whole body. Where the kernel can start writeback of a range
// without a journal commit (`sync_file_range`), it is started every 2 MiB: the tail left for the
// final fsync of the web app's 10 MiB chunks then took half as long as with 8 MiB. Otherwise each
// early flush is an fdatasync with a journal commit of its own, so they are spaced out to 8 MiB.
const EARLY_WRITEBACK_BYTES = 2 * 1024 * 1024;
const EARLY_SYNC_BYTES = 8 * 1024 * 1024;

/** What the final flush covers: the bytes and the size only, or the file's metadata too (its mode). */
export type FinalSync = 'data' | 'all';

/**
 * Writes a request body into a staging file at a fixed position, in order, never past `limit`,
 * in batches of up to 4 MiB, flushing to disk in the background as it goes and completely before
 * it finishes. `position` only advances once bytes are really in the file, so after any failure
 * it is the size the file can be trusted to have.
 */
export class StagingWriter extends Writable {
  position: number;
  private readonly handle: FileHandle;
  private readonly limit: number;
  private readonly finalSync: FinalSync;
  private readonly writeback = startWriteback();
  private unsynced = 0;
  /** Where the bytes handed to the background flush end. */
  private flushedTo: number;
  private backgroundSync: Promise<void> | undefined;
  private backgroundError: unknown;

  constructor(handle: FileHandle, start: number, limit: number, finalSync: FinalSync = 'data') {
    super({ highWaterMark: WRITE_BATCH_BYTES, decodeStrings: true });
    this.handle = handle;
    this.position = start;
    this.flushedTo = start;
    this.limit = limit;
    this.finalSync = finalSync;
  }

  /** Waits for a flush started in the background; call before closing the file handle. */
  async settle(): Promise<void> {
    await this.backgroundSync;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeBuffers([chunk]).then(() => callback(), callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    this.writeBuffers(chunks.map((entry) => entry.chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.settle()
      .then(() => {
        if (this.backgroundError) throw this.backgroundError;
        // fdatasync covers the bytes and the file size, which is all a resume relies on.
        return this.finalSync === 'all' ? this.handle.sync() : this.handle.datasync();
      })
      .then(() => callback(), callback);
  }

  private startBackgroundSync(): void {
    const writeback = this.writeback;
    if (this.backgroundSync || this.unsynced < (writeback ? EARLY_WRITEBACK_BYTES : EARLY_SYNC_BYTES)) return;
    this.unsynced = 0;
    // Where the kernel offers it, only start writing the new bytes out: no journal commit, and
    // the final fdatasync then has one commit to make instead of waiting for a second one.
    const from = this.flushedTo;
    this.flushedTo = this.position;
    // Early writeback is only a head start: when it fails, the final fsync still writes and
    // reports. A failed early fdatasync is an I/O error already, and fails the body.
    const flush = writeback ? writeback(this.handle.fd, from, this.position - from).catch(() => undefined) : this.handle.datasync();
    this.backgroundSync = flush
      .catch((error: unknown) => {
        this.backgroundError ??= error;
      })
      .finally(() => {
        this.backgroundSync = undefined;
      });
  }

  private async writeBuffers(buffers: Buffer[]): Promise<void> {
    let total = 0;
    for (const buffer of buffers) total += buffer.length;
    // Refuse the whole batch: nothing beyond the declared length ever reaches the disk.
    if (this.position + total > this.limit) throw new OverLengthError();
    let pending = buffers;
    while (pending.length > 0) {
      const { bytesWritten } = await this.handle.writev(pending, this.position);
      this.position += bytesWritten;
      this.unsynced += bytesWritten;
      pending = dropBytes(pending, bytesWritten);
    }
    this.startBackgroundSync();
  }
}

/** What is left of a buffer list after its first `count` bytes (short writes). */
function dropBytes(buffers: Buffer[], count: number): Buffer[] {
  let skip = count;
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return rest;
}
