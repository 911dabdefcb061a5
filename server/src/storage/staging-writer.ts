import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { DirectAlignment, alignUp, openDirect, returnStageBuffer, takeStageBuffer } from './direct-io.js';
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

// Bodies smaller than this are written through the page cache: a direct write of a few blocks
// saves nothing worth a second file handle.
const DIRECT_MIN_BYTES = 256 * 1024;
// While the disk is idle, a direct write starts as soon as this much is gathered, so that little
// is left to write when the body ends and the answer waits for it.
const EAGER_DIRECT_BYTES = 256 * 1024;

/** What the final flush covers: the bytes and the size only, or the file's metadata too (its mode). */
export type FinalSync = 'data' | 'all';

export type StagingWriterOptions = {
  finalSync?: FinalSync;
  /** How many bytes the body is expected to bring, when its sender said; small bodies skip direct writes. */
  expectedBytes?: number;
  /** Direct writes may be used (on by default; off only to compare both ways in tests). */
  direct?: boolean;
};

/**
 * Writes a request body into a staging file at a fixed position, in order, never past `limit`,
 * and completely to disk before it finishes. `position` only advances once bytes are really in
 * the file, so after any failure it is the size the file can be trusted to have.
 *
 * Large bodies go to the disk directly (see direct-io.ts). The bytes up to the first aligned
 * offset go through the page cache; after them, bytes are gathered in one of two aligned buffers
 * while the other one's whole blocks are being written, and the partial last block goes through
 * the page cache at the end. Elsewhere, bytes go through the page cache in batches of up to
 * 4 MiB, with writeback started in the background as they arrive.
 */
export class StagingWriter extends Writable {
  position: number;
  /** Bytes written directly, past the page cache. */
  directBytes = 0;
  private readonly handle: FileHandle;
  private readonly limit: number;
  private readonly finalSync: FinalSync;
  private readonly writeback = startWriteback();
  /** Bytes taken from the body so far: the written ones and those still in a stage buffer. */
  private accepted: number;
  /** Where direct writes may start; never, when the body is small or they are off. */
  private directFrom: number;
  /** The two stage buffers, once direct writing has begun, and the one being filled. */
  private stages: [Buffer, Buffer] | null = null;
  private filling = 0;
  private staged = 0;
  /** The direct write in progress, from the other stage buffer, and how the last one failed. */
  private inflight: Promise<void> | null = null;
  private inflightError: unknown;
  /** The direct handle: not opened yet, open, or refused. */
  private directFile: FileHandle | null | undefined;
  /** The body write being handled, which must end before its buffers and handles are released. */
  private writing: Promise<void> | undefined;
  private unsynced = 0;
  /** Where the bytes handed to the background flush end. */
  private flushedTo: number;
  private backgroundSync: Promise<void> | undefined;
  private backgroundError: unknown;

  constructor(handle: FileHandle, start: number, limit: number, options: StagingWriterOptions = {}) {
    super({ highWaterMark: WRITE_BATCH_BYTES, decodeStrings: true });
    this.handle = handle;
    this.position = start;
    this.accepted = start;
    this.flushedTo = start;
    this.limit = limit;
    this.finalSync = options.finalSync ?? 'data';
    const small = options.expectedBytes !== undefined && options.expectedBytes < DIRECT_MIN_BYTES;
    this.directFrom = options.direct === false || small ? Infinity : alignUp(start);
  }

  /**
   * Waits for the writes in progress and any flush started in the background, and lets go of the
   * direct handle and the stage buffers; call before closing the file handle.
   */
  async settle(): Promise<void> {
    await this.writing?.catch(() => undefined);
    await this.inflight;
    await this.backgroundSync;
    await this.releaseDirect();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.track(this.writeBuffers([chunk])).then(() => callback(), callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    this.track(this.writeBuffers(chunks.map((entry) => entry.chunk))).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.track(this.flushStaged())
      .then(() => this.settle())
      .then(() => {
        if (this.backgroundError) throw this.backgroundError;
        // fdatasync covers the bytes and the file size, which is all a resume relies on.
        return this.finalSync === 'all' ? this.handle.sync() : this.handle.datasync();
      })
      .then(() => callback(), callback);
  }

  private track(work: Promise<void>): Promise<void> {
    this.writing = work;
    return work;
  }

  private async releaseDirect(): Promise<void> {
    const file = this.directFile;
    if (file) {
      this.directFile = null;
      await file.close().catch(() => undefined);
    }
    if (this.stages) {
      for (const stage of this.stages) returnStageBuffer(stage);
      this.stages = null;
      this.staged = 0;
    }
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
    if (this.accepted + total > this.limit) throw new OverLengthError();
    this.accepted += total;
    let rest = buffers;
    if (!this.stages && this.position < this.directFrom) {
      const [head, tail] = splitBuffers(rest, this.directFrom - this.position);
      if (head.length > 0) await this.writeThrough(head);
      rest = tail;
    }
    for (const buffer of rest) await this.stageBytes(buffer);
  }

  /** Gathers bytes for direct writes. */
  private async stageBytes(buffer: Buffer): Promise<void> {
    let offset = 0;
    while (offset < buffer.length) {
      const stage = this.fillingStage();
      if (!stage) {
        this.directFrom = Infinity;
        await this.writeThrough([buffer.subarray(offset)]);
        return;
      }
      const copied = buffer.copy(stage, this.staged, offset);
      this.staged += copied;
      offset += copied;
      // A full buffer waits for the disk; otherwise a write starts as soon as the disk is free.
      if (this.staged === stage.length || (!this.inflight && this.staged >= EAGER_DIRECT_BYTES)) await this.startDirectWrite();
    }
  }

  private fillingStage(): Buffer | null {
    if (!this.stages) {
      const first = takeStageBuffer();
      const second = first && takeStageBuffer();
      if (!first || !second) {
        if (first) returnStageBuffer(first);
        return null;
      }
      this.stages = [first, second];
    }
    return this.stages[this.filling]!;
  }

  /** Waits for the direct write in progress, and fails as it failed. */
  private async directWritten(): Promise<void> {
    await this.inflight;
    if (this.inflightError) throw this.inflightError;
  }

  /**
   * Once the disk is done with the previous write, starts writing the whole blocks gathered so
   * far without waiting for it; filling goes on in the other buffer, from the partial last block.
   */
  private async startDirectWrite(): Promise<void> {
    await this.directWritten();
    const full = this.stages![this.filling]!;
    const whole = this.staged - (this.staged % DirectAlignment);
    if (whole === 0) return;
    this.filling = 1 - this.filling;
    this.staged = full.copy(this.stages![this.filling]!, 0, whole, this.staged);
    this.inflight = this.writeDirect(full.subarray(0, whole)).then(
      () => {
        this.inflight = null;
      },
      (error: unknown) => {
        this.inflightError = error;
        this.inflight = null;
      },
    );
  }

  /** Writes what is still gathered: its whole blocks directly, the partial last one through the page cache. */
  private async flushStaged(): Promise<void> {
    await this.directWritten();
    if (!this.stages || this.staged === 0) return;
    const stage = this.stages[this.filling]!;
    const whole = this.staged - (this.staged % DirectAlignment);
    if (whole > 0) await this.writeDirect(stage.subarray(0, whole));
    if (whole < this.staged) await this.writeThrough([stage.subarray(whole, this.staged)]);
    this.staged = 0;
  }

  private async writeDirect(bytes: Buffer): Promise<void> {
    if (this.directFile === undefined) this.directFile = await openDirect(this.handle);
    let rest = bytes;
    while (this.directFile && rest.length > 0) {
      try {
        const { bytesWritten } = await this.directFile.write(rest, 0, rest.length, this.position);
        this.position += bytesWritten;
        this.directBytes += bytesWritten;
        rest = rest.subarray(bytesWritten);
      } catch (error) {
        // A filesystem or device that refuses these writes gets the rest through the page cache.
        if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
        const file = this.directFile;
        this.directFile = null;
        await file.close().catch(() => undefined);
      }
    }
    if (rest.length > 0) await this.writeThrough([rest]);
  }

  private async writeThrough(buffers: Buffer[]): Promise<void> {
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

/** A buffer list cut after its first `count` bytes. */
function splitBuffers(buffers: Buffer[], count: number): [Buffer[], Buffer[]] {
  const head: Buffer[] = [];
  let left = count;
  let index = 0;
  for (; index < buffers.length && left > 0; index++) {
    const buffer = buffers[index]!;
    if (buffer.length <= left) {
      head.push(buffer);
      left -= buffer.length;
      continue;
    }
    head.push(buffer.subarray(0, left));
    return [head, [buffer.subarray(left), ...buffers.slice(index + 1)]];
  }
  return [head, buffers.slice(index)];
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
