import type { FileHandle } from 'node:fs/promises';
import http from 'node:http';
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { plainSocketFd, unsentBytes, type ZeroCopy } from './zero-copy.js';

/** Bytes per read: large reads keep the per-chunk costs (promises, syscalls, socket writes) low. */
export const FILE_CHUNK = 1024 * 1024;
/** Buffers one response cycles through: one being filled while the others are being sent. */
const RING_SIZE = 3;
/** Bytes written the ordinary way between kernel sends (headers go out with the first). */
const PIECE = 16 * 1024;
/** Turns of the event loop a full socket gets to drain before an ordinary piece waits for it. */
const FULL_SOCKET_RETRIES = 4;
/** Most bytes one `sendfile` call may take: a call on a file not yet cached waits for the disk (on a pool thread). */
const SEND_LIMIT = 4 * 1024 * 1024;
/**
 * Most bytes one `sendfile` call on the event loop may take, for a range the page cache holds
 * whole: the loop waits while the kernel copies them into the socket.
 */
const CACHED_SEND_LIMIT = 2 * 1024 * 1024;
/** Bytes the kernel is asked to read ahead of the sends (files not in the page cache yet). */
const PREFETCH = 16 * 1024 * 1024;

/**
 * Bytes the kernel sends bypass Node's HTTP framing: only a plain socket, a declared length (no
 * chunked encoding) and a response that has a body qualify.
 */
function kernelCanSend(response: http.ServerResponse): boolean {
  return (
    plainSocketFd(response.socket) !== undefined &&
    response.hasHeader('content-length') &&
    !response.hasHeader('transfer-encoding') &&
    response.req.method !== 'HEAD' &&
    response.statusCode !== 204 &&
    response.statusCode !== 304
  );
}

export type FileRangeOptions = {
  /** Lets the kernel send the bytes when the response is on a plain TCP socket. */
  zeroCopy?: ZeroCopy;
  /**
   * Piped into a response: milliseconds the client may take no byte before the response is cut
   * (0 or absent: never). A stalled reader otherwise holds its socket, the file and the
   * descriptors of the kernel path for as long as it stays connected.
   */
  sendTimeoutMs?: number;
};

/**
 * A byte range of an open file as a readable stream that owns (and finally closes) the handle.
 *
 * Read by any consumer it behaves like `FileHandle.createReadStream`. Piped into an HTTP response
 * (which is what fastify does with a stream payload) it writes into the response itself:
 * - on a plain TCP socket, with `zeroCopy`, the kernel sends the file (`sendfile`) while the
 *   socket has room; when it is full, one small piece goes the ordinary way and its completion
 *   says there is room again. Ordinary writes also carry the headers and keep the order: the
 *   kernel is only asked to send once everything Node queued has reached the socket;
 * - otherwise through a small ring of reused buffers, reusing a buffer only once the socket has
 *   reported its write done. A fresh buffer per chunk, as ordinary file streams allocate, makes
 *   V8 account a gigabyte of external memory per gigabyte sent, and the garbage collections that
 *   triggers cost more than the copying itself on a server with a sizeable heap.
 */
export class FileRangeStream extends Readable {
  readonly #handle: FileHandle;
  readonly #zeroCopy: ZeroCopy | undefined;
  readonly #sendTimeoutMs: number;
  /** Next byte to read, and one past the last byte to send. */
  #position: number;
  readonly #end: number;
  #pumping = false;
  /** Wakes the pump when a buffer comes back or the stream is destroyed. */
  #wake: (() => void) | undefined;

  /** Streams bytes `start` to `end` (inclusive) of `handle`. */
  constructor(handle: FileHandle, start: number, end: number, options: FileRangeOptions = {}) {
    super({ highWaterMark: FILE_CHUNK });
    this.#handle = handle;
    this.#zeroCopy = options.zeroCopy;
    this.#sendTimeoutMs = options.sendTimeoutMs ?? 0;
    this.#position = start;
    this.#end = end + 1;
  }

  override _read(): void {
    if (this.#pumping) return;
    const length = Math.min(FILE_CHUNK, this.#end - this.#position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.#handle.read(buffer, 0, length, this.#position).then(
      ({ bytesRead }) => {
        if (this.destroyed) return;
        if (bytesRead === 0) {
          this.destroy(new Error('file shrank while it was being sent'));
          return;
        }
        this.#position += bytesRead;
        this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#wake?.();
    // A read still in flight holds the handle open; close() waits for it.
    this.#handle.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const fresh = !this.#pumping && this.readableFlowing === null && this.readableLength === 0 && !this.destroyed;
    if (!fresh || !(destination instanceof http.ServerResponse)) return super.pipe(destination, options);
    this.#pumping = true;
    const zeroCopy = this.#zeroCopy && kernelCanSend(destination) ? this.#zeroCopy : undefined;
    this.#drive(destination, options?.end !== false, zeroCopy).catch((error: NodeJS.ErrnoException) => {
      // A client that went away is no failure of the file: the response closes, which ends this
      // stream. The kernel may tell before Node's socket does.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') destination.destroy();
      else this.destroy(error);
    });
    return destination;
  }

  async #drive(response: http.ServerResponse, endResponse: boolean, zeroCopy: ZeroCopy | undefined): Promise<void> {
    // A response that closes before the end (the client went away) ends the stream and frees the
    // file at once, whoever piped it.
    const onClose = () => this.destroy();
    response.once('close', onClose);
    const stopped = () => this.destroyed || response.destroyed;
    const stall = this.#watchStall(response);
    try {
      if (zeroCopy) await this.#sendByKernel(response, zeroCopy, stopped);
      else await this.#sendThroughRing(response, stopped);
    } finally {
      clearInterval(stall);
    }
    // A response that went away has destroyed this stream already; nothing to report.
    if (stopped()) return;
    response.off('close', onClose);
    if (endResponse) response.end();
    // Report the end as a piped stream would, so listeners see 'end' and the handle is closed.
    this.push(null);
    this.resume();
  }

  /**
   * Cuts the connection once the client has taken no byte for a whole send timeout (so between
   * one and two of them after it stalled). Progress is the file position moving on, or the
   * socket's queue of bytes the client has not taken shrinking: a slow reader may leave the
   * position still for long, since a full socket only reports room again once half its queue
   * has gone. Cutting the connection closes the response, which ends this stream.
   */
  #watchStall(response: http.ServerResponse): NodeJS.Timeout | undefined {
    if (this.#sendTimeoutMs <= 0) return undefined;
    const queued = () => {
      const fd = plainSocketFd(response.socket);
      return fd === undefined ? undefined : unsentBytes(fd);
    };
    let position = this.#position;
    let unsent = queued();
    const timer = setInterval(() => {
      if (response.destroyed) return;
      const nowUnsent = queued();
      const moved = this.#position !== position || (nowUnsent !== undefined && unsent !== undefined && nowUnsent < unsent);
      position = this.#position;
      unsent = nowUnsent;
      if (!moved) response.destroy();
    }, this.#sendTimeoutMs);
    timer.unref();
    return timer;
  }

  /** Writes one chunk; resolves once the socket is done with it (or the stream was destroyed). */
  #written(response: http.ServerResponse, chunk: Buffer): Promise<Error | null | undefined> {
    return new Promise((resolve) => {
      this.#wake = () => resolve(undefined);
      response.write(chunk, (error) => {
        this.#wake = undefined;
        resolve(error);
      });
    });
  }

  async #sendByKernel(response: http.ServerResponse, zeroCopy: ZeroCopy, stopped: () => boolean): Promise<void> {
    const socketFd = plainSocketFd(response.socket);
    if (socketFd === undefined) return this.#sendThroughRing(response, stopped);
    // The kernel sends on a thread of the pool, through descriptors of this stream's own: the
    // socket or the file may be closed by Node meanwhile (the client went away), and their
    // numbers reused for another connection, but these stay what they were until released.
    const ownSocket = zeroCopy.duplicate(socketFd);
    let ownFile: number | undefined;
    try {
      ownFile = zeroCopy.duplicate(this.#handle.fd);
      await this.#sendPieces(response, zeroCopy, ownSocket, ownFile, stopped);
    } finally {
      zeroCopy.release(ownSocket);
      if (ownFile !== undefined) zeroCopy.release(ownFile);
    }
  }

  async #sendPieces(response: http.ServerResponse, zeroCopy: ZeroCopy, socketFd: number, fileFd: number, stopped: () => boolean): Promise<void> {
    const piece = Buffer.allocUnsafeSlow(Math.min(PIECE, this.#end - this.#position));
    // How far the kernel was asked to read ahead, and that request while it runs.
    let prefetchedTo = this.#position;
    let prefetching: Promise<void> | undefined;
    const prefetch = () => {
      if (prefetching || prefetchedTo >= this.#end || prefetchedTo - this.#position > PREFETCH / 2) return;
      const from = Math.max(prefetchedTo, this.#position);
      prefetchedTo = Math.min(this.#end, from + PREFETCH);
      prefetching = zeroCopy.prefetch(fileFd, from, prefetchedTo - from).finally(() => (prefetching = undefined));
    };
    zeroCopy.cork(socketFd, true);
    try {
      await this.#sendPiecesAhead(response, zeroCopy, socketFd, fileFd, stopped, piece, prefetch);
    } finally {
      zeroCopy.cork(socketFd, false);
      // The descriptors are released after this returns: the request must be done with them.
      await prefetching;
    }
  }

  async #sendPiecesAhead(
    response: http.ServerResponse,
    zeroCopy: ZeroCopy,
    socketFd: number,
    fileFd: number,
    stopped: () => boolean,
    piece: Buffer,
    prefetch: () => void,
  ): Promise<void> {
    let widened = false;
    while (this.#position < this.#end) {
      const length = Math.min(piece.length, this.#end - this.#position);
      const { bytesRead } = await this.#handle.read(piece, 0, length, this.#position);
      if (stopped()) return;
      if (bytesRead === 0) throw new Error('file shrank while it was being sent');
      this.#position += bytesRead;
      const failure = await this.#written(response, piece.subarray(0, bytesRead));
      if (stopped()) return;
      if (failure) throw failure;
      if (!widened && this.#end - this.#position > SEND_LIMIT) {
        zeroCopy.widenSendBuffer(socketFd);
        widened = true;
      }
      let retries = 0;
      while (this.#position < this.#end) {
        // Whatever Node still holds for the socket must go first: take the ordinary way.
        const socket = response.socket;
        if (stopped() || !socket || socket.destroyed || socket.writableLength > 0) break;
        // Cached bytes go at once, a little at a time so other connections get their turns
        // between; the rest goes from a pool thread, which may wait for the disk.
        const remaining = this.#end - this.#position;
        let sent = zeroCopy.sendCached(socketFd, fileFd, this.#position, Math.min(CACHED_SEND_LIMIT, remaining));
        if (sent === 'uncached') sent = await zeroCopy.send(socketFd, fileFd, this.#position, Math.min(SEND_LIMIT, remaining));
        else if (sent !== 'again') await yieldToLoop();
        if (stopped()) return;
        if (sent === 'again') {
          // A fast reader empties the socket within microseconds: try again after the other
          // pending work a few times before falling back to a piece (which waits for room but
          // leaves the socket idle until its completion is handled).
          if (retries++ >= FULL_SOCKET_RETRIES) break;
          await yieldToLoop();
          if (stopped()) return;
          continue;
        }
        if (sent === 0) throw new Error('file shrank while it was being sent');
        this.#position += sent;
        retries = 0;
        prefetch();
      }
    }
  }

  async #sendThroughRing(response: http.ServerResponse, stopped: () => boolean): Promise<void> {
    const free: Buffer[] = [];
    let allocated = 0;
    let failure: Error | null | undefined;
    const waitForBuffer = () => new Promise<void>((resolve) => (this.#wake = resolve));

    while (this.#position < this.#end) {
      const length = Math.min(FILE_CHUNK, this.#end - this.#position);
      if (free.length === 0 && allocated < RING_SIZE) {
        free.push(Buffer.allocUnsafeSlow(Math.min(FILE_CHUNK, this.#end - this.#position)));
        allocated++;
      }
      while (free.length === 0 && !stopped() && !failure) await waitForBuffer();
      if (stopped() || failure) break;
      const buffer = free.pop()!;
      const { bytesRead } = await this.#handle.read(buffer, 0, Math.min(length, buffer.length), this.#position);
      if (stopped()) break;
      if (bytesRead === 0) throw new Error('file shrank while it was being sent');
      this.#position += bytesRead;
      response.write(buffer.subarray(0, bytesRead), (error) => {
        // The socket is done with the bytes (or gave up): only then may the buffer be refilled.
        if (error) failure = error;
        else free.push(buffer);
        const wake = this.#wake;
        this.#wake = undefined;
        wake?.();
      });
    }
    if (!stopped() && failure) throw failure;
  }
}
