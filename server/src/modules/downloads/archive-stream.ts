import { once } from 'node:events';
import fs from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { PassThrough, Readable, pipeline, type Writable } from 'node:stream';
import type { Header, Pack } from 'tar-stream';
import type { ArchiveFormat } from '@burrow/protocol';
import type { Scope } from '../../storage/scoped-fs.js';
import { walkArchive, type ArchiveEntry, type ArchivePlan } from './archive-entries.js';
import { createCompressor } from './compressors.js';
import { ZipWriter } from './zip-writer.js';

/** Bytes read from a file per step; each step waits until the archive has room. */
const READ_CHUNK = 256 * 1024;

// The callback forms, promisified: a FileHandle per entry costs an object with a finaliser and
// the promise API's extra layer, which a tree of tens of thousands of files pays for every time.
const openFile = promisify(fs.open);
const statFile = promisify(fs.fstat);
const closeFile = promisify(fs.close);
const readFile = (fd: number, buffer: Buffer, length: number, position: number) =>
  new Promise<number>((resolve, reject) => fs.read(fd, buffer, 0, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))));

/** Opening an entry never follows a link swapped in after the walk and never blocks on a FIFO. */
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Extensions whose content is already compressed: zip stores them instead of deflating again. */
const PRECOMPRESSED = new Set(
  '.zip .gz .tgz .bz2 .xz .txz .7z .rar .zst .lz4 .br .sz .jpg .jpeg .png .gif .webp .avif .heic .heif .mp4 .m4v .mkv .webm .mov .avi .mp3 .m4a .aac .ogg .oga .opus .flac .docx .xlsx .pptx .odt .ods .odp .epub .jar .apk .woff .woff2'.split(' '),
);

type FileSource = { size: number; chunks: AsyncIterable<Buffer> };

interface Packer {
  readonly output: Readable;
  addDirectory(entry: ArchiveEntry, signal: AbortSignal): Promise<void>;
  addFile(entry: ArchiveEntry, source: FileSource, signal: AbortSignal): Promise<void>;
  finish(signal: AbortSignal): Promise<void>;
}

/** Resolves with `promise`, or rejects as soon as `signal` aborts (the archive was abandoned). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Longest name a ustar header holds: a 155-byte prefix, the separator between, a 100-byte name. */
const USTAR_NAME_BYTES = 256;

/**
 * A tar header for `name`. For a long name, tar-stream looks for a ustar prefix/name split by
 * dropping one leading segment at a time and measuring what is left each time, which costs the
 * square of the depth for every entry of a deep tree. A name over 256 bytes never fits, so it is
 * sent straight to a PAX record (`pax` set), which is what tar-stream writes for it in the end.
 */
function tarHeader(name: string, fields: Partial<Omit<Header, 'name'>>): Partial<Header> & Pick<Header, 'name'> {
  return Buffer.byteLength(name) > USTAR_NAME_BYTES ? { ...fields, name, pax: {} } : { ...fields, name };
}

class TarPacker implements Packer {
  readonly output: Readable;

  constructor(private readonly pack: Pack) {
    this.output = Readable.from(pack, { objectMode: false, highWaterMark: 64 * 1024 });
    // Failures reach the consumer through `output`; the inner stream's own event is redundant.
    this.pack.on('error', () => undefined);
  }

  async addDirectory(entry: ArchiveEntry, signal: AbortSignal): Promise<void> {
    await untilAborted(
      new Promise<void>((resolve, reject) => {
        this.pack.entry(tarHeader(entry.name + '/', { type: 'directory', mode: entry.mode, mtime: entry.mtime }), (error) => (error ? reject(error) : resolve()));
      }),
      signal,
    );
  }

  async addFile(entry: ArchiveEntry, source: FileSource, signal: AbortSignal): Promise<void> {
    let sink!: Writable;
    const done = new Promise<void>((resolve, reject) => {
      // The sink is a streamx Writable; it honours the Node Writable calls used here.
      sink = this.pack.entry(tarHeader(entry.name, { type: 'file', size: source.size, mode: entry.mode, mtime: entry.mtime }), (error) =>
        error ? reject(error) : resolve(),
      ) as unknown as Writable;
    });
    done.catch(() => undefined);
    sink.on('error', () => undefined);
    try {
      for await (const chunk of source.chunks) {
        if (!sink.write(chunk)) await once(sink, 'drain', { signal });
      }
      sink.end();
      await untilAborted(done, signal);
    } catch (error) {
      sink.destroy(error as Error);
      throw error;
    }
  }

  async finish(): Promise<void> {
    this.pack.finalize();
  }
}

class ZipPacker implements Packer {
  private readonly zip = new ZipWriter(6);
  readonly output: Readable = this.zip.output;

  addDirectory(entry: ArchiveEntry, signal: AbortSignal): Promise<void> {
    return this.zip.addDirectory({ name: entry.name, mtime: entry.mtime, mode: entry.mode }, signal);
  }

  async addFile(entry: ArchiveEntry, source: FileSource, signal: AbortSignal): Promise<void> {
    const iterator = source.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    const head = first.done ? Buffer.alloc(0) : first.value;
    const store = PRECOMPRESSED.has(path.extname(entry.name).toLowerCase()) || looksIncompressible(head);
    async function* chunks(): AsyncGenerator<Buffer> {
      if (head.length > 0) yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    }
    await this.zip.addFile({ name: entry.name, mtime: entry.mtime, mode: entry.mode, store }, chunks(), source.size, signal);
  }

  finish(signal: AbortSignal): Promise<void> {
    return this.zip.finish(signal);
  }
}

/** Bytes sampled from the start of a file to judge whether deflating it is worth the time. */
const SAMPLE_BYTES = 4096;

/**
 * True when a file's first bytes look random (over 7.5 bits of entropy per byte): media,
 * archives and encrypted data, which deflate cannot shrink but would spend most of the
 * archive's time on. Such files are stored. A histogram costs microseconds, unlike a trial
 * compression.
 */
function looksIncompressible(head: Buffer): boolean {
  // The end of the first read, past the headers that open most media files.
  const sample = head.subarray(Math.max(0, head.length - SAMPLE_BYTES));
  const length = sample.length;
  if (length < 1024) return false;
  const counts = new Uint32Array(256);
  for (let index = 0; index < length; index++) counts[sample[index]!]!++;
  let entropy = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const share = count / length;
    entropy -= share * Math.log2(share);
  }
  return entropy > 7.5;
}

/**
 * Exactly `size` bytes of an open file: one that shrinks while it is read is padded with zeros
 * (tar has already declared the size), one that grows is cut at `size`.
 */
async function* readExact(fd: number, size: number): AsyncGenerator<Buffer> {
  let position = 0;
  while (position < size) {
    const length = Math.min(READ_CHUNK, size - position);
    const buffer = Buffer.allocUnsafe(length);
    const bytesRead = await readFile(fd, buffer, length, position);
    if (bytesRead === 0) {
      for (let left = size - position; left > 0; left -= READ_CHUNK) yield Buffer.alloc(Math.min(READ_CHUNK, left));
      return;
    }
    position += bytesRead;
    yield bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
  }
}

/** The tar library loads on first use: a server that never builds a tarball never pays for it. */
async function createPacker(format: ArchiveFormat): Promise<Packer> {
  if (format === 'zip') return new ZipPacker();
  const { default: tar } = await import('tar-stream');
  return new TarPacker(tar.pack());
}

/**
 * Streams an archive of the plan in the given format. Entries are walked, opened and read one
 * at a time as the consumer takes the bytes, so memory stays flat whatever the size. Destroying
 * the returned stream (the client went away) stops the walk and closes the open file.
 */
export async function createArchiveStream(scope: Scope, plan: ArchivePlan, format: ArchiveFormat): Promise<Readable> {
  const controller = new AbortController();
  const { signal } = controller;
  const packer = await createPacker(format);
  const compressor = await createCompressor(format);
  const output = new PassThrough({ highWaterMark: 64 * 1024 });
  const abort = () => controller.abort(new Error('archive abandoned'));
  const settle = (error: NodeJS.ErrnoException | null) => {
    if (error) abort();
  };
  if (compressor) pipeline(packer.output, compressor, output, settle);
  else pipeline(packer.output, output, settle);
  output.once('close', abort);

  async function addFile(entry: ArchiveEntry): Promise<void> {
    let fd: number;
    try {
      fd = await openFile(entry.real, OPEN_FLAGS);
    } catch {
      return; // vanished or unreadable since the walk: left out
    }
    try {
      const stat = await statFile(fd);
      if (!stat.isFile()) return;
      const size = stat.size;
      await packer.addFile({ ...entry, mode: stat.mode & 0o7777, mtime: stat.mtime }, { size, chunks: readExact(fd, size) }, signal);
    } finally {
      await closeFile(fd);
    }
  }

  async function produce(): Promise<void> {
    for await (const entry of walkArchive(scope, plan, signal)) {
      if (signal.aborted) return;
      if (entry.kind === 'directory') await packer.addDirectory(entry, signal);
      else await addFile(entry);
    }
    if (!signal.aborted) await packer.finish(signal);
  }

  produce().catch((error: unknown) => {
    if (signal.aborted) return;
    output.destroy(error as Error);
  });
  return output;
}
