import fs from 'node:fs';

/**
 * A read-only reader for BoltDB files (the format of bbolt and boltdb), enough to take data over
 * from programs that kept it there. It walks only what the live tree reaches from the chosen meta
 * page: pages on the freelist may still hold old copies of records, and those are never read.
 *
 * Layout, all little-endian:
 * - every page starts with a 16-byte header: id u64, flags u16, count u16, overflow u32; a page
 *   with `overflow` n spans n + 1 page-size blocks;
 * - pages 0 and 1 are meta pages: magic u32, version u32, page size u32, flags u32, root bucket
 *   (root page u64, sequence u64), freelist page u64, page count u64, transaction id u64, and an
 *   FNV-1a 64 checksum of the 56 bytes before it;
 * - branch pages hold `count` elements of 16 bytes (key offset u32, key size u32, child page
 *   u64), leaf pages `count` elements of 16 bytes (flags u32, offset u32, key size u32, value
 *   size u32); offsets count from the element itself;
 * - a leaf element with flag 1 is a bucket: its value is the bucket header (root page u64,
 *   sequence u64), and when the root is 0 an inline page follows the header in the value.
 */

export const BOLT_MAGIC = 0xed0cdaed;
const BOLT_VERSION = 2;
const PAGE_HEADER_SIZE = 16;
const ELEMENT_SIZE = 16;
const META_CHECKSUM_OFFSET = 56;
const BUCKET_HEADER_SIZE = 16;

const BRANCH_PAGE = 0x01;
const LEAF_PAGE = 0x02;
const META_PAGE = 0x04;
const BUCKET_LEAF_FLAG = 0x01;

/** Deepest tree accepted: far beyond any real file, it only stops loops in a damaged one. */
const MAX_DEPTH = 64;

export class BoltError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BoltError';
  }
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** FNV-1a, 64 bits: the checksum bolt keeps on its meta pages. */
export function fnv1a64(bytes: Uint8Array): bigint {
  let hash = FNV_OFFSET;
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash;
}

export type BoltMeta = {
  /** Which meta page (0 or 1) this is. */
  page: 0 | 1;
  pageSize: number;
  flags: number;
  root: number;
  sequence: bigint;
  freelist: number;
  /** Pages allocated in the file (the high-water mark). */
  pageCount: number;
  txid: bigint;
};

type MetaCheck = { ok: true; meta: BoltMeta } | { ok: false; reason: 'magic' | 'version' | 'checksum' | 'short' };

function u64(buffer: Buffer, offset: number): number {
  const value = buffer.readBigUInt64LE(offset);
  // Page ids beyond 2^53 cannot be in any file this reader can hold in memory.
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

/** Reads and checks the meta page that starts at `offset`. */
function readMeta(file: Buffer, offset: number, page: 0 | 1): MetaCheck {
  const start = offset + PAGE_HEADER_SIZE;
  if (file.length < start + META_CHECKSUM_OFFSET + 8) return { ok: false, reason: 'short' };
  if (file.readUInt32LE(start) !== BOLT_MAGIC) return { ok: false, reason: 'magic' };
  if (file.readUInt32LE(start + 4) !== BOLT_VERSION) return { ok: false, reason: 'version' };
  const expected = fnv1a64(file.subarray(start, start + META_CHECKSUM_OFFSET));
  if (file.readBigUInt64LE(start + META_CHECKSUM_OFFSET) !== expected) return { ok: false, reason: 'checksum' };
  const flags = file.readUInt16LE(offset + 8);
  if (!(flags & META_PAGE)) return { ok: false, reason: 'checksum' };
  return {
    ok: true,
    meta: {
      page,
      pageSize: file.readUInt32LE(start + 8),
      flags: file.readUInt32LE(start + 12),
      root: u64(file, start + 16),
      sequence: file.readBigUInt64LE(start + 24),
      freelist: u64(file, start + 32),
      pageCount: u64(file, start + 40),
      txid: file.readBigUInt64LE(start + 48),
    },
  };
}

function plausiblePageSize(size: number): boolean {
  return size >= 512 && size <= 1 << 20 && (size & (size - 1)) === 0;
}

/** True when the first bytes of `head` are those of a BoltDB file (its first meta page). */
export function hasBoltMagic(head: Buffer): boolean {
  return head.length >= PAGE_HEADER_SIZE + 4 && head.readUInt32LE(PAGE_HEADER_SIZE) === BOLT_MAGIC;
}

/** Whether the file at `file` starts like a BoltDB file; false for missing or unreadable files. */
export function isBoltFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(PAGE_HEADER_SIZE + 4);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return hasBoltMagic(head.subarray(0, read));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Picks the meta page to read from, as bolt does: of the two valid ones, the one with the higher
 * transaction id. The second meta page sits one page in; when the first is damaged its page size
 * is unknown, so each plausible size is tried.
 */
function chooseMeta(file: Buffer): BoltMeta {
  const first = readMeta(file, 0, 0);
  const candidates: BoltMeta[] = [];
  if (first.ok && plausiblePageSize(first.meta.pageSize)) candidates.push(first.meta);
  const secondSizes = first.ok && plausiblePageSize(first.meta.pageSize) ? [first.meta.pageSize] : [];
  for (let size = 512; size <= 1 << 16; size *= 2) if (!secondSizes.includes(size)) secondSizes.push(size);
  let secondHasMagic = false;
  for (const size of secondSizes) {
    const second = readMeta(file, size, 1);
    if (second.ok && second.meta.pageSize === size) {
      candidates.push(second.meta);
      break;
    }
    if (!second.ok && second.reason !== 'magic' && second.reason !== 'short') secondHasMagic = true;
  }
  if (!candidates.length) {
    if (!first.ok && first.reason === 'short') throw new BoltError('not a BoltDB file: too short to hold its meta pages');
    if (!first.ok && first.reason === 'magic' && !secondHasMagic) throw new BoltError('not a BoltDB file: no BoltDB meta page at its start');
    if (!first.ok && first.reason === 'version') throw new BoltError('unsupported BoltDB version');
    throw new BoltError('damaged BoltDB file: both meta pages are invalid');
  }
  candidates.sort((a, b) => (a.txid === b.txid ? a.page - b.page : a.txid > b.txid ? -1 : 1));
  const meta = candidates[0]!;
  if (file.length < meta.pageSize * 2) throw new BoltError('truncated BoltDB file: it ends inside its meta pages');
  return meta;
}

/** A page seen through its bytes: a file page, or an inline bucket's page inside a value. */
type PageView = { buffer: Buffer; offset: number; flags: number; count: number };

export type BoltEntry = { key: Buffer; value: Buffer; bucket?: undefined } | { key: Buffer; value?: undefined; bucket: BoltBucket };

/** A bucket of the live tree: its keys in order, each a value or a nested bucket. */
export class BoltBucket {
  readonly #db: BoltDatabase;
  readonly #root: number;
  readonly #inline: PageView | undefined;
  readonly #depth: number;
  readonly sequence: bigint;

  constructor(db: BoltDatabase, root: number, sequence: bigint, inline: PageView | undefined, depth: number) {
    this.#db = db;
    this.#root = root;
    this.#inline = inline;
    this.sequence = sequence;
    this.#depth = depth;
  }

  /** Every entry, in key order. */
  *entries(): Generator<BoltEntry> {
    if (this.#inline) {
      yield* this.#leafEntries(this.#inline);
      return;
    }
    yield* this.#walk(this.#root, new Set(), 0);
  }

  /** The plain values (not nested buckets) of this bucket, in key order. */
  *values(): Generator<{ key: Buffer; value: Buffer }> {
    for (const entry of this.entries()) if (!entry.bucket) yield entry;
  }

  /** The nested bucket called `name`, if there is one. */
  bucket(name: string | Buffer): BoltBucket | undefined {
    const key = typeof name === 'string' ? Buffer.from(name) : name;
    for (const entry of this.entries()) if (entry.bucket && entry.key.equals(key)) return entry.bucket;
    return undefined;
  }

  /** The value stored under `name`, if it is a plain value. */
  get(name: string | Buffer): Buffer | undefined {
    const key = typeof name === 'string' ? Buffer.from(name) : name;
    for (const entry of this.entries()) if (!entry.bucket && entry.key.equals(key)) return entry.value;
    return undefined;
  }

  *#walk(pageId: number, seen: Set<number>, level: number): Generator<BoltEntry> {
    if (level > MAX_DEPTH || seen.has(pageId)) throw new BoltError(`damaged BoltDB file: page ${pageId} is reached twice in one tree`);
    seen.add(pageId);
    const page = this.#db.page(pageId);
    if (page.flags & BRANCH_PAGE) {
      for (let index = 0; index < page.count; index++) {
        const element = page.offset + PAGE_HEADER_SIZE + index * ELEMENT_SIZE;
        this.#db.within(page, element, ELEMENT_SIZE, pageId);
        yield* this.#walk(u64(page.buffer, element + 8), seen, level + 1);
      }
    } else if (page.flags & LEAF_PAGE) {
      yield* this.#leafEntries(page, pageId);
    } else {
      throw new BoltError(`damaged BoltDB file: page ${pageId} is neither a branch nor a leaf (flags ${page.flags})`);
    }
  }

  *#leafEntries(page: PageView, pageId?: number): Generator<BoltEntry> {
    for (let index = 0; index < page.count; index++) {
      const element = page.offset + PAGE_HEADER_SIZE + index * ELEMENT_SIZE;
      this.#db.within(page, element, ELEMENT_SIZE, pageId);
      const flags = page.buffer.readUInt32LE(element);
      const position = element + page.buffer.readUInt32LE(element + 4);
      const keySize = page.buffer.readUInt32LE(element + 8);
      const valueSize = page.buffer.readUInt32LE(element + 12);
      this.#db.within(page, position, keySize + valueSize, pageId);
      const key = page.buffer.subarray(position, position + keySize);
      const value = page.buffer.subarray(position + keySize, position + keySize + valueSize);
      if (flags & BUCKET_LEAF_FLAG) yield { key, bucket: this.#db.openBucket(value, this.#depth + 1, key) };
      else yield { key, value };
    }
  }
}

/** An opened BoltDB file, held in memory. */
export class BoltDatabase {
  readonly meta: BoltMeta;
  readonly #file: Buffer;

  constructor(file: Buffer) {
    this.#file = file;
    this.meta = chooseMeta(file);
    if (this.meta.root < 2 || this.meta.root >= this.meta.pageCount) {
      throw new BoltError(`damaged BoltDB file: the root page ${this.meta.root} lies outside the ${this.meta.pageCount} allocated pages`);
    }
  }

  static open(file: string): BoltDatabase {
    return new BoltDatabase(fs.readFileSync(file));
  }

  /** The top-level bucket holding every named bucket. */
  root(): BoltBucket {
    return new BoltBucket(this, this.meta.root, this.meta.sequence, undefined, 0);
  }

  /** A top-level bucket by name. */
  bucket(name: string): BoltBucket | undefined {
    return this.root().bucket(name);
  }

  /** @internal Reads a page of the file, checking it lies inside the file and the allocated pages. */
  page(id: number): PageView {
    const { pageSize, pageCount } = this.meta;
    if (id < 2 || id >= pageCount) throw new BoltError(`damaged BoltDB file: page ${id} lies outside the ${pageCount} allocated pages`);
    const offset = id * pageSize;
    if (offset + PAGE_HEADER_SIZE > this.#file.length) throw new BoltError(`truncated BoltDB file: page ${id} lies past its end`);
    const storedId = u64(this.#file, offset);
    if (storedId !== id) throw new BoltError(`damaged BoltDB file: page ${id} says it is page ${storedId}`);
    const overflow = this.#file.readUInt32LE(offset + 12);
    const end = offset + (overflow + 1) * pageSize;
    if (end > this.#file.length) throw new BoltError(`truncated BoltDB file: page ${id} runs past its end`);
    return {
      buffer: this.#file.subarray(0, end),
      offset,
      flags: this.#file.readUInt16LE(offset + 8),
      count: this.#file.readUInt16LE(offset + 10),
    };
  }

  /** @internal Checks that `length` bytes at `at` lie inside the page. */
  within(page: PageView, at: number, length: number, pageId: number | undefined): void {
    if (at < page.offset || at + length > page.buffer.length) {
      throw new BoltError(`damaged BoltDB file: an element of ${pageId === undefined ? 'an inline bucket' : `page ${pageId}`} points outside it`);
    }
  }

  /** @internal Opens the bucket whose header is `value` (a nested bucket's leaf value). */
  openBucket(value: Buffer, depth: number, name: Buffer): BoltBucket {
    if (depth > MAX_DEPTH) throw new BoltError('damaged BoltDB file: buckets nest too deep');
    if (value.length < BUCKET_HEADER_SIZE) throw new BoltError(`damaged BoltDB file: bucket ${JSON.stringify(name.toString())} has a short header`);
    const root = u64(value, 0);
    const sequence = value.readBigUInt64LE(8);
    if (root !== 0) return new BoltBucket(this, root, sequence, undefined, depth);
    // Inline bucket: a whole page, header and elements, follows the bucket header in the value.
    const inline = value.subarray(BUCKET_HEADER_SIZE);
    if (inline.length < PAGE_HEADER_SIZE) throw new BoltError(`damaged BoltDB file: inline bucket ${JSON.stringify(name.toString())} is too short`);
    const flags = inline.readUInt16LE(8);
    if (!(flags & LEAF_PAGE)) throw new BoltError(`damaged BoltDB file: inline bucket ${JSON.stringify(name.toString())} is not a leaf`);
    return new BoltBucket(this, 0, sequence, { buffer: inline, offset: 0, flags, count: inline.readUInt16LE(10) }, depth);
  }
}
