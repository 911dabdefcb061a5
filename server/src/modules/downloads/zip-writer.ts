import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A streaming ZIP writer (APPNOTE 6.3). Entries are written one after another with data
 * descriptors, so nothing is buffered and sizes need not be known in advance; the central
 * directory is built from a compact record per entry (about a hundred bytes plus the name).
 * ZIP64 structures are used where sizes, offsets or the entry count need them. Names are UTF-8
 * (flag bit 11); modification times go in DOS form and, exactly, in an extended-timestamp field.
 */

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** "Made by" Unix, so extractors apply the stored permission bits. */
const MADE_BY_UNIX = 3 << 8;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;

type Record = {
  name: Buffer;
  method: number;
  flags: number;
  dosTime: number;
  dosDate: number;
  unixSeconds: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  externalAttributes: number;
  zip64: boolean;
};

export type ZipEntryOptions = {
  name: string;
  mtime: Date;
  mode: number;
  /** Store instead of deflating (already compressed content). */
  store?: boolean;
};

function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const year = date.getFullYear();
  if (year < 1980) return { dosTime: 0, dosDate: (1 << 5) | 1 };
  if (year > 2107) return { dosTime: (23 << 11) | (59 << 5) | 29, dosDate: (127 << 9) | (12 << 5) | 31 };
  return {
    dosTime: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    dosDate: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** Extended timestamp extra field (0x5455) with the modification time only. */
function timestampField(unixSeconds: number): Buffer {
  const field = Buffer.alloc(9);
  field.writeUInt16LE(0x5455, 0);
  field.writeUInt16LE(5, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(Math.max(0, Math.min(unixSeconds, MAX32)) >>> 0, 5);
  return field;
}

function zip64Field(values: number[]): Buffer {
  const field = Buffer.alloc(4 + 8 * values.length);
  field.writeUInt16LE(0x0001, 0);
  field.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, index) => field.writeBigUInt64LE(BigInt(value), 4 + 8 * index));
  return field;
}

export class ZipWriter {
  /** The archive bytes. Destroying it makes pending and later writes fail. */
  readonly output = new PassThrough({ highWaterMark: 64 * 1024 });
  private offset = 0;
  private readonly records: Record[] = [];

  constructor(private readonly level = 6) {}

  private async write(chunk: Buffer, signal?: AbortSignal): Promise<void> {
    if (this.output.destroyed) throw new Error('archive output closed');
    this.offset += chunk.length;
    if (!this.output.write(chunk)) await once(this.output, 'drain', { signal });
  }

  private localHeader(record: Record): Buffer {
    const extra = [timestampField(record.unixSeconds)];
    // With the ZIP64 field present, readers expect 8-byte sizes in the data descriptor.
    if (record.zip64) extra.push(zip64Field([0, 0]));
    const extras = Buffer.concat(extra);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(record.zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
    header.writeUInt16LE(record.flags, 6);
    header.writeUInt16LE(record.method, 8);
    header.writeUInt16LE(record.dosTime, 10);
    header.writeUInt16LE(record.dosDate, 12);
    // CRC and sizes follow the data (descriptor); ZIP64 entries mark the sizes as such.
    header.writeUInt32LE(record.crc, 14);
    header.writeUInt32LE(record.zip64 ? MAX32 : record.compressed, 18);
    header.writeUInt32LE(record.zip64 ? MAX32 : record.size, 22);
    header.writeUInt16LE(record.name.length, 26);
    header.writeUInt16LE(extras.length, 28);
    return Buffer.concat([header, record.name, extras]);
  }

  private newRecord(options: ZipEntryOptions, directory: boolean, expectedSize: number): Record {
    const name = Buffer.from(directory && !options.name.endsWith('/') ? options.name + '/' : options.name, 'utf8');
    if (name.length > MAX16) throw new Error('entry name too long');
    const { dosTime, dosDate } = dosDateTime(options.mtime);
    const fileType = directory ? 0o040000 : 0o100000;
    // Deflate can grow incompressible input slightly: leave headroom before the 4 GiB limit.
    const zip64 = !directory && expectedSize > MAX32 - (Math.ceil(expectedSize / 1000) + 1024 * 1024);
    return {
      name,
      method: directory || options.store ? METHOD_STORE : METHOD_DEFLATE,
      flags: FLAG_UTF8 | (directory ? 0 : FLAG_DESCRIPTOR),
      dosTime,
      dosDate,
      unixSeconds: Math.floor(options.mtime.getTime() / 1000),
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.offset,
      externalAttributes: ((((options.mode & 0o7777) | fileType) << 16) | (directory ? 0x10 : 0)) >>> 0,
      zip64,
    };
  }

  async addDirectory(options: ZipEntryOptions, signal?: AbortSignal): Promise<void> {
    const record = this.newRecord(options, true, 0);
    this.records.push(record);
    await this.write(this.localHeader(record), signal);
  }

  /**
   * Adds a file from its chunks. `expectedSize` (the size at open time) decides whether the
   * entry needs ZIP64 sizes; the recorded sizes are what was actually read.
   */
  async addFile(options: ZipEntryOptions, chunks: AsyncIterable<Buffer>, expectedSize: number, signal?: AbortSignal): Promise<void> {
    const record = this.newRecord(options, false, expectedSize);
    await this.write(this.localHeader(record), signal);
    const start = this.offset;
    let crc = 0;
    let size = 0;
    if (record.method === METHOD_STORE) {
      for await (const chunk of chunks) {
        crc = zlib.crc32(chunk, crc);
        size += chunk.length;
        await this.write(chunk, signal);
      }
    } else {
      const deflate = zlib.createDeflateRaw({ level: this.level });
      const drained = (async () => {
        for await (const compressed of deflate as AsyncIterable<Buffer>) await this.write(compressed, signal);
      })();
      drained.catch(() => undefined);
      try {
        for await (const chunk of chunks) {
          crc = zlib.crc32(chunk, crc);
          size += chunk.length;
          if (!deflate.write(chunk)) await Promise.race([once(deflate, 'drain', { signal }), drained]);
        }
        deflate.end();
        await drained;
      } finally {
        deflate.destroy();
      }
    }
    record.crc = crc >>> 0;
    record.size = size;
    record.compressed = this.offset - start;
    if (!record.zip64 && (record.size > MAX32 || record.compressed > MAX32)) throw new Error('entry grew past the 4 GiB limit while it was read');
    const descriptor = Buffer.alloc(record.zip64 ? 24 : 16);
    descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(record.crc, 4);
    if (record.zip64) {
      descriptor.writeBigUInt64LE(BigInt(record.compressed), 8);
      descriptor.writeBigUInt64LE(BigInt(record.size), 16);
    } else {
      descriptor.writeUInt32LE(record.compressed, 8);
      descriptor.writeUInt32LE(record.size, 12);
    }
    this.records.push(record);
    await this.write(descriptor, signal);
  }

  private centralHeader(record: Record): Buffer {
    const large: number[] = [];
    const sizeField = record.size >= MAX32 || record.zip64 ? (large.push(record.size), MAX32) : record.size;
    const compressedField = record.compressed >= MAX32 || record.zip64 ? (large.push(record.compressed), MAX32) : record.compressed;
    const offsetField = record.offset >= MAX32 ? (large.push(record.offset), MAX32) : record.offset;
    const extras = Buffer.concat(large.length > 0 ? [zip64Field(large), timestampField(record.unixSeconds)] : [timestampField(record.unixSeconds)]);
    const needs64 = large.length > 0;
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(MADE_BY_UNIX | VERSION_ZIP64, 4);
    header.writeUInt16LE(needs64 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
    header.writeUInt16LE(record.flags, 8);
    header.writeUInt16LE(record.method, 10);
    header.writeUInt16LE(record.dosTime, 12);
    header.writeUInt16LE(record.dosDate, 14);
    header.writeUInt32LE(record.crc, 16);
    header.writeUInt32LE(compressedField, 20);
    header.writeUInt32LE(sizeField, 24);
    header.writeUInt16LE(record.name.length, 28);
    header.writeUInt16LE(extras.length, 30);
    header.writeUInt16LE(0, 32);
    header.writeUInt16LE(0, 34);
    header.writeUInt16LE(0, 36);
    header.writeUInt32LE(record.externalAttributes, 38);
    header.writeUInt32LE(offsetField, 42);
    return Buffer.concat([header, record.name, extras]);
  }

  /** Writes the central directory and ends the output. */
  async finish(signal?: AbortSignal): Promise<void> {
    const start = this.offset;
    // Headers go out in batches so a huge directory is neither one buffer nor many tiny writes.
    let batch: Buffer[] = [];
    let batchSize = 0;
    for (const record of this.records) {
      const header = this.centralHeader(record);
      batch.push(header);
      batchSize += header.length;
      if (batchSize >= 64 * 1024) {
        await this.write(Buffer.concat(batch, batchSize), signal);
        batch = [];
        batchSize = 0;
      }
    }
    if (batchSize > 0) await this.write(Buffer.concat(batch, batchSize), signal);
    const size = this.offset - start;
    const count = this.records.length;
    const needs64 = count >= MAX16 || size >= MAX32 || start >= MAX32;
    if (needs64) {
      const zip64End = Buffer.alloc(56);
      zip64End.writeUInt32LE(ZIP64_END, 0);
      zip64End.writeBigUInt64LE(44n, 4);
      zip64End.writeUInt16LE(MADE_BY_UNIX | VERSION_ZIP64, 12);
      zip64End.writeUInt16LE(VERSION_ZIP64, 14);
      zip64End.writeUInt32LE(0, 16);
      zip64End.writeUInt32LE(0, 20);
      zip64End.writeBigUInt64LE(BigInt(count), 24);
      zip64End.writeBigUInt64LE(BigInt(count), 32);
      zip64End.writeBigUInt64LE(BigInt(size), 40);
      zip64End.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(ZIP64_LOCATOR, 0);
      locator.writeUInt32LE(0, 4);
      locator.writeBigUInt64LE(BigInt(this.offset), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(Buffer.concat([zip64End, locator]), signal);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL, 0);
    end.writeUInt16LE(0, 4);
    end.writeUInt16LE(0, 6);
    end.writeUInt16LE(Math.min(count, MAX16), 8);
    end.writeUInt16LE(Math.min(count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    end.writeUInt16LE(0, 20);
    await this.write(end, signal);
    this.output.end();
  }
}
