import type { FileHandle } from 'node:fs/promises';
import { Writable, type Readable } from 'node:stream';

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

// Every PATCH ends with an fsync before its answer. Starting the flush of what has been written
// so far while the rest is still arriving overlaps disk and network, so that final fsync only
// waits for the tail instead of the whole chunk. Each flush also costs a journal commit, so they
// are spaced out: 8 MiB measured best for the web app's 10 MiB chunks and for single large PATCHes.
const EARLY_SYNC_BYTES = 8 * 1024 * 1024;

/**
 * Writes a request body into a staging file at a fixed position, in order, never past `limit`.
 * `position` only advances once bytes are really in the file, so after any failure it is the
 * size the file can be trusted to have.
 */
export class StagingWriter extends Writable {
  position: number;
  private readonly handle: FileHandle;
  private readonly limit: number;
  private unsynced = 0;
  private backgroundSync: Promise<void> | undefined;
  private backgroundError: unknown;

  constructor(handle: FileHandle, start: number, limit: number) {
    super({ highWaterMark: WRITE_BATCH_BYTES, decodeStrings: true });
    this.handle = handle;
    this.position = start;
    this.limit = limit;
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
        return this.handle.datasync();
      })
      .then(() => callback(), callback);
  }

  private startBackgroundSync(): void {
    if (this.backgroundSync || this.unsynced < EARLY_SYNC_BYTES) return;
    this.unsynced = 0;
    this.backgroundSync = this.handle
      .datasync()
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

/**
 * Pipes `source` into `writer`, honouring backpressure. Resolves `complete` when the whole body
 * arrived and was synced, `aborted` when the sender went away first (what did arrive is written
 * and synced, so the upload can resume from there). Rejects with the writer's error; the source
 * is then left unpiped but intact so the caller can still drain it and answer.
 */
export function receiveBody(source: Readable, writer: StagingWriter): Promise<'complete' | 'aborted'> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let aborted = false;

    const cleanup = () => {
      source.off('aborted', onSourceGone);
      source.off('error', onSourceGone);
      source.off('close', onSourceGone);
      writer.off('error', onWriterError);
      writer.off('finish', onFinish);
    };
    const onFinish = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(aborted ? 'aborted' : 'complete');
    };
    const onWriterError = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      source.unpipe(writer);
      reject(error);
    };
    const onSourceGone = () => {
      if (source.readableEnded || aborted) return;
      aborted = true;
      source.unpipe(writer);
      // Flush and sync what was handed over before the connection dropped.
      writer.end();
    };

    writer.on('finish', onFinish);
    writer.on('error', onWriterError);
    source.on('aborted', onSourceGone);
    source.on('error', onSourceGone);
    source.on('close', onSourceGone);

    if (source.destroyed && !source.readableEnded) {
      onSourceGone();
      return;
    }
    source.pipe(writer);
  });
}

/**
 * Reads and discards what is left of a request body, at most `cap` bytes, so a rejected request
 * does not cost the client its keep-alive connection. Resolves false when the body was longer
 * than the cap or the connection failed: the caller should then close the connection.
 */
export function drainBody(source: Readable, cap: number): Promise<boolean> {
  if (source.readableEnded) return Promise.resolve(true);
  if (source.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (complete: boolean) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onFail);
      source.off('close', onFail);
      if (!complete) source.pause();
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap) finish(false);
    };
    const onEnd = () => finish(true);
    const onFail = () => finish(source.readableEnded);
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onFail);
    source.once('close', onFail);
    source.resume();
  });
}
