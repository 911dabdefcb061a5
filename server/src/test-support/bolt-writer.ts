import { BOLT_MAGIC, fnv1a64 } from '../modules/import/bolt-reader.js';

/**
 * Writes BoltDB files for tests, laid out the way bolt lays them out: two meta pages, branch and
 * leaf pages split at the page size, overflow pages for elements larger than a page, nested and
 * inline buckets, and a freelist page. Older versions of the data can be left behind in freed
 * pages, as a real file keeps them after a record is rewritten.
 */

type BoltValue = string | Buffer | BoltBucketSpec;
export type BoltTree = Array<[string | Buffer, BoltValue]>;
export type BoltBucketSpec = {
  bucket: BoltTree;
  /** Store the bucket inside its parent's leaf value; by default, as bolt: when small and flat. */
  inline?: boolean;
  sequence?: bigint;
};

export type BoltWriteOptions = {
  pageSize?: number;
  /** Transaction id of the newer meta page; the other one gets txid - 1. */
  txid?: number;
  /** Which meta page (0 or 1) is the newer one. */
  newerMeta?: 0 | 1;
  /** Earlier versions of the data, written to pages that the freelist then lists as free. */
  stale?: BoltTree[];
  /** What the older meta page points at: the live tree (default), or the last stale tree. */
  olderMetaRoot?: 'live' | 'stale';
  /** Meta pages whose checksum is broken after writing. */
  damageMeta?: Array<0 | 1>;
};

const PAGE_HEADER = 16;
const ELEMENT = 16;
const BRANCH = 0x01;
const LEAF = 0x02;
const META = 0x04;
const FREELIST = 0x10;

type Element = { key: Buffer; value: Buffer; isBucket: boolean };

export function bucket(tree: BoltTree, options: Omit<BoltBucketSpec, 'bucket'> = {}): BoltBucketSpec {
  return { bucket: tree, ...options };
}

/** Builds a whole BoltDB file whose root holds the buckets of `tree`. */
export function writeBolt(tree: BoltTree, options: BoltWriteOptions = {}): Buffer {
  const pageSize = options.pageSize ?? 4096;
  const pages = new Map<number, Buffer>();
  let next = 2;

  const allocate = (bytes: Buffer, flags: number, count: number): number => {
    const span = Math.max(1, Math.ceil(bytes.length / pageSize));
    const id = next;
    next += span;
    const page = Buffer.alloc(span * pageSize);
    bytes.copy(page);
    page.writeBigUInt64LE(BigInt(id), 0);
    page.writeUInt16LE(flags, 8);
    page.writeUInt16LE(count, 10);
    page.writeUInt32LE(span - 1, 12);
    pages.set(id, page);
    return id;
  };

  const leafBytes = (elements: Element[]): Buffer => {
    const size = PAGE_HEADER + elements.reduce((sum, element) => sum + ELEMENT + element.key.length + element.value.length, 0);
    const bytes = Buffer.alloc(size);
    bytes.writeUInt16LE(LEAF, 8);
    bytes.writeUInt16LE(elements.length, 10);
    let data = PAGE_HEADER + elements.length * ELEMENT;
    elements.forEach((element, index) => {
      const at = PAGE_HEADER + index * ELEMENT;
      bytes.writeUInt32LE(element.isBucket ? 1 : 0, at);
      bytes.writeUInt32LE(data - at, at + 4);
      bytes.writeUInt32LE(element.key.length, at + 8);
      bytes.writeUInt32LE(element.value.length, at + 12);
      element.key.copy(bytes, data);
      element.value.copy(bytes, data + element.key.length);
      data += element.key.length + element.value.length;
    });
    return bytes;
  };

  const branchBytes = (children: Array<{ key: Buffer; id: number }>): Buffer => {
    const size = PAGE_HEADER + children.reduce((sum, child) => sum + ELEMENT + child.key.length, 0);
    const bytes = Buffer.alloc(size);
    let data = PAGE_HEADER + children.length * ELEMENT;
    children.forEach((child, index) => {
      const at = PAGE_HEADER + index * ELEMENT;
      bytes.writeUInt32LE(data - at, at);
      bytes.writeUInt32LE(child.key.length, at + 4);
      bytes.writeBigUInt64LE(BigInt(child.id), at + 8);
      child.key.copy(bytes, data);
      data += child.key.length;
    });
    return bytes;
  };

  /** Splits items into runs that fit a page (a single oversized item gets a run of its own). */
  const split = <T>(items: T[], size: (item: T) => number): T[][] => {
    const runs: T[][] = [];
    let run: T[] = [];
    let used = PAGE_HEADER;
    for (const item of items) {
      const itemSize = size(item);
      if (run.length && (used + itemSize > pageSize || run.length === 0xffff)) {
        runs.push(run);
        run = [];
        used = PAGE_HEADER;
      }
      run.push(item);
      used += itemSize;
    }
    if (run.length || !runs.length) runs.push(run);
    return runs;
  };

  const writeTree = (elements: Element[]): number => {
    let level = split(elements, (element) => ELEMENT + element.key.length + element.value.length).map((run) => ({
      key: run[0]?.key ?? Buffer.alloc(0),
      id: allocate(leafBytes(run), LEAF, run.length),
    }));
    while (level.length > 1) {
      level = split(level, (child) => ELEMENT + child.key.length).map((run) => ({
        key: run[0]!.key,
        id: allocate(branchBytes(run), BRANCH, run.length),
      }));
    }
    return level[0]!.id;
  };

  const toElements = (entries: BoltTree): Element[] => {
    const elements = entries.map(([name, value]): Element => {
      const key = typeof name === 'string' ? Buffer.from(name) : name;
      if (typeof value === 'string' || Buffer.isBuffer(value)) return { key, value: Buffer.from(value), isBucket: false };
      return { key, value: bucketValue(value), isBucket: true };
    });
    return elements.sort((a, b) => Buffer.compare(a.key, b.key));
  };

  const bucketValue = (spec: BoltBucketSpec): Buffer => {
    const elements = toElements(spec.bucket);
    const header = Buffer.alloc(16);
    header.writeBigUInt64LE(spec.sequence ?? 0n, 8);
    const flat = leafBytes(elements);
    const inline = spec.inline ?? (!elements.some((element) => element.isBucket) && flat.length + 16 <= pageSize / 4);
    if (inline) return Buffer.concat([header, flat]);
    header.writeBigUInt64LE(BigInt(writeTree(elements)), 0);
    return header;
  };

  const freed: number[] = [];
  let staleRoot: number | undefined;
  for (const old of options.stale ?? []) {
    const first = next;
    staleRoot = writeTree(toElements(old));
    for (let id = first; id < next; id++) freed.push(id);
  }
  const liveRoot = writeTree(toElements(tree));
  const freelistBytes = Buffer.alloc(PAGE_HEADER + freed.length * 8);
  freed.forEach((id, index) => freelistBytes.writeBigUInt64LE(BigInt(id), PAGE_HEADER + index * 8));
  const freelist = allocate(freelistBytes, FREELIST, freed.length);
  const pageCount = next;

  const file = Buffer.alloc(pageCount * pageSize);
  for (const [id, page] of pages) page.copy(file, id * pageSize);
  const txid = options.txid ?? 10;
  const newer = options.newerMeta ?? 1;
  for (const which of [0, 1] as const) {
    const older = which !== newer;
    const root = older && options.olderMetaRoot === 'stale' && staleRoot !== undefined ? staleRoot : liveRoot;
    writeMeta(file, which, { pageSize, root, freelist, pageCount, txid: older ? txid - 1 : txid });
  }
  for (const which of options.damageMeta ?? []) {
    // One bit of the transaction id: the checksum no longer matches.
    const at = which * pageSize + PAGE_HEADER + 48;
    file[at] = file[at]! ^ 0x01;
  }
  return file;
}

function writeMeta(file: Buffer, which: 0 | 1, meta: { pageSize: number; root: number; freelist: number; pageCount: number; txid: number }) {
  const at = which * meta.pageSize;
  file.writeBigUInt64LE(BigInt(which), at);
  file.writeUInt16LE(META, at + 8);
  const body = at + PAGE_HEADER;
  file.writeUInt32LE(BOLT_MAGIC, body);
  file.writeUInt32LE(2, body + 4);
  file.writeUInt32LE(meta.pageSize, body + 8);
  file.writeUInt32LE(0, body + 12);
  file.writeBigUInt64LE(BigInt(meta.root), body + 16);
  file.writeBigUInt64LE(0n, body + 24);
  file.writeBigUInt64LE(BigInt(meta.freelist), body + 32);
  file.writeBigUInt64LE(BigInt(meta.pageCount), body + 40);
  file.writeBigUInt64LE(BigInt(meta.txid), body + 48);
  file.writeBigUInt64LE(fnv1a64(file.subarray(body, body + 56)), body + 56);
}

/** An 8-byte big-endian key, as storm stores integer ids. */
export function idKey(id: number): Buffer {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(BigInt(id));
  return key;
}

export type StormRecords = Record<string, Array<{ key: string | Buffer; value: unknown }>>;

/**
 * The tree storm writes with its JSON codec: one bucket per record type holding the records and
 * storm's metadata and index buckets, the `config` bucket of single values, and `__storm_db`.
 */
export function stormTree(options: { types?: StormRecords; config?: Record<string, unknown> }): BoltTree {
  const metadata = (): BoltBucketSpec => bucket([['codec', 'json']]);
  const tree: BoltTree = [['__storm_db', bucket([['__storm_metadata', metadata()], ['version', '"2.0.0"']])]];
  for (const [type, records] of Object.entries(options.types ?? {})) {
    const index: BoltTree = records.map(({ key }) => [key, idKey(0)]);
    tree.push([
      type,
      bucket([
        ...records.map(({ key, value }): [string | Buffer, BoltValue] => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
        ['__storm_metadata', metadata()],
        ['__storm_index_ID', bucket(index)],
      ]),
    ]);
  }
  if (options.config) {
    tree.push([
      'config',
      bucket([
        ['__storm_metadata', metadata()],
        ...Object.entries(options.config).map(([key, value]): [string, BoltValue] => [key, JSON.stringify(value)]),
      ]),
    ]);
  }
  return tree;
}
