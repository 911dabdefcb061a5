import { createRequire } from 'node:module';
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { keepYoungGenerationSmallAfter } from '../../storage/young-generation.js';

/**
 * The LZ4 frame format (what the `lz4` tool reads and writes), written as a stream. The input is
 * cut into independent blocks of `BLOCK_SIZE`; a worker thread compresses them with an LZ4
 * compressor compiled to WebAssembly, whose memory is one buffer of a few blocks that never
 * grows after the first. Two blocks are in flight at a time, so the archive is read while the
 * previous block is compressed, and the event loop never waits on the compression.
 */

/** 1 MiB blocks (block maximum size code 6 in the frame descriptor). */
export const BLOCK_SIZE = 1024 * 1024;
const BLOCK_SIZE_CODE = 6;
/** Blocks handed to the worker before the stream waits for the oldest. */
const IN_FLIGHT = 2;
/** The worker stops when no block came for this long; the next archive starts it again. */
const IDLE_MS = 10_000;

const MAGIC = 0x184d2204;
/** Version 01, independent blocks, no block or content checksum, no content size, no dictionary. */
const FLG = 0b0110_0000;
const BD = BLOCK_SIZE_CODE << 4;
/** A block size with this bit set means the block is stored uncompressed. */
const UNCOMPRESSED = 0x8000_0000;

const PRIME1 = 2654435761;
const PRIME2 = 2246822519;
const PRIME3 = 3266489917;
const PRIME4 = 668265263;
const PRIME5 = 374761393;

const rotl = (value: number, bits: number) => ((value << bits) | (value >>> (32 - bits))) >>> 0;

/** xxHash32 of a short input (under 16 bytes, the only case a frame header needs). */
export function xxh32Short(input: Uint8Array, seed = 0): number {
  if (input.length >= 16) throw new RangeError('xxh32Short takes fewer than 16 bytes');
  let hash = (seed + PRIME5 + input.length) >>> 0;
  let offset = 0;
  for (; offset + 4 <= input.length; offset += 4) {
    const word = (input[offset]! | (input[offset + 1]! << 8) | (input[offset + 2]! << 16) | (input[offset + 3]! << 24)) >>> 0;
    hash = Math.imul(rotl((hash + Math.imul(word, PRIME3)) >>> 0, 17), PRIME4) >>> 0;
  }
  for (; offset < input.length; offset++) hash = Math.imul(rotl((hash + Math.imul(input[offset]!, PRIME5)) >>> 0, 11), PRIME1) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 15), PRIME2) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 13), PRIME3) >>> 0;
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** The frame header: magic number, descriptor and the descriptor's checksum byte. */
export function frameHeader(): Buffer {
  const header = Buffer.alloc(7);
  header.writeUInt32LE(MAGIC, 0);
  header[4] = FLG;
  header[5] = BD;
  header[6] = (xxh32Short(header.subarray(4, 6)) >>> 8) & 0xff;
  return header;
}

/** A compressed block, or the block itself when compressing would not make it smaller. */
type Compressed = { data: Buffer; stored: boolean };
type Job = { resolve: (block: Compressed) => void; reject: (error: Error) => void };

/** The one compression worker of the process, started on first use. */
class Lz4Worker {
  #worker: Worker | undefined;
  #jobs = new Map<number, Job>();
  #next = 0;
  #idle: NodeJS.Timeout | undefined;

  compress(block: Uint8Array): Promise<Compressed> {
    const worker = this.#start();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    const id = this.#next++;
    return new Promise<Compressed>((resolve, reject) => {
      this.#jobs.set(id, { resolve, reject });
      worker.postMessage({ id, block }, [block.buffer as ArrayBuffer]);
    });
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const module = createRequire(import.meta.url).resolve('lz4-wasm-nodejs');
    // The compressor writes the input's length (4 bytes), then the block. A block that would not
    // shrink goes back as it came, to be stored uncompressed.
    const source = `
      const { parentPort } = require('node:worker_threads');
      const { compress } = require(${JSON.stringify(module)});
      parentPort.on('message', ({ id, block }) => {
        try {
          const out = compress(block);
          if (out.length - 4 >= block.length) parentPort.postMessage({ id, out: block, stored: true }, [block.buffer]);
          else parentPort.postMessage({ id, out: out.subarray(4), stored: false }, [out.buffer]);
        } catch (error) {
          parentPort.postMessage({ id, error: String(error) });
        }
      });`;
    // The worker runs plain JavaScript: none of the parent's loader flags apply to it.
    const worker = keepYoungGenerationSmallAfter(new Worker(source, { eval: true, execArgv: [] }));
    worker.unref();
    worker.on('message', ({ id, out, stored, error }: { id: number; out?: Uint8Array; stored?: boolean; error?: string }) => {
      const job = this.#jobs.get(id);
      if (!job) return;
      this.#jobs.delete(id);
      if (error !== undefined || !out) job.reject(new Error(`lz4 compression failed: ${error}`));
      else job.resolve({ data: Buffer.from(out.buffer, out.byteOffset, out.byteLength), stored: Boolean(stored) });
      if (this.#jobs.size === 0) this.#scheduleStop();
    });
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const job of this.#jobs.values()) job.reject(error);
      this.#jobs.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the lz4 worker stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #scheduleStop(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      this.#idle = undefined;
      if (this.#jobs.size > 0) return;
      const worker = this.#worker;
      this.#worker = undefined;
      void worker?.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }
}

let shared: Lz4Worker | undefined;

/** A stream that turns its input into one LZ4 frame. */
export class Lz4FrameStream extends Transform {
  #chunks: Buffer[] = [];
  #buffered = 0;
  #inFlight: Array<Promise<Compressed>> = [];
  #started = false;

  constructor() {
    super({ highWaterMark: 64 * 1024 });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#begin();
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    this.#sendFullBlocks()
      .then(() => done())
      .catch(done);
  }

  override _flush(done: TransformCallback): void {
    this.#begin();
    if (this.#buffered > 0) this.#send(this.#take(this.#buffered));
    this.#drain(0)
      .then(() => {
        // The end mark.
        this.push(Buffer.alloc(4));
        done();
      })
      .catch(done);
  }

  #begin(): void {
    if (this.#started) return;
    this.#started = true;
    this.push(frameHeader());
  }

  async #sendFullBlocks(): Promise<void> {
    while (this.#buffered >= BLOCK_SIZE) {
      this.#send(this.#take(BLOCK_SIZE));
      await this.#drain(IN_FLIGHT - 1);
    }
  }

  /** Copies the first `size` buffered bytes into a block of its own (it is moved to the worker). */
  #take(size: number): Uint8Array {
    const block = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const chunk = this.#chunks[0]!;
      const part = Math.min(chunk.length, size - filled);
      block.set(part === chunk.length ? chunk : chunk.subarray(0, part), filled);
      filled += part;
      if (part === chunk.length) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(part);
    }
    this.#buffered -= size;
    return block;
  }

  #send(block: Uint8Array): void {
    shared ??= new Lz4Worker();
    const compressed = shared.compress(block);
    // A stream destroyed early never waits for its blocks; their failures must not go unhandled.
    compressed.catch(() => undefined);
    this.#inFlight.push(compressed);
  }

  /** Writes out finished blocks, oldest first, until at most `keep` remain in flight. */
  async #drain(keep: number): Promise<void> {
    while (this.#inFlight.length > keep) {
      const { data, stored } = await this.#inFlight.shift()!;
      const length = Buffer.alloc(4);
      length.writeUInt32LE(stored ? (data.length | UNCOMPRESSED) >>> 0 : data.length, 0);
      this.push(length);
      this.push(data);
    }
  }
}
