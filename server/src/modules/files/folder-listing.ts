import fs from 'node:fs';
import { type Resource, type ResourceItem, type Sorting } from '@burrow/protocol';
import type { Scope } from '../../storage/scoped-fs.js';
import { joinVirtual } from '../../storage/virtual-path.js';
import { extensionOf, formatModifiedParts, goFileMode } from './file-info.js';
import { createSubtitleLookup, detectTypeOf, subtitlesOf } from './file-types.js';
import { EntryTyper, ItemWriter, NOT_WRITTEN, TYPE_CODES, typeCode, type WrittenItems } from './listing-items.js';
import { entryStatPool, type TypedNames } from './entry-stats-pool.js';
import { IS_DANGLING, IS_DIR, IS_FILE, IS_SYMLINK, listableNames, realOf, scanFolder, WORKER_THRESHOLD, type FolderScan } from './folder-scan.js';
import { mapLimit } from './concurrency.js';
import { firstInOrder, sortOrder } from './sorting.js';

/**
 * Listings read the first bytes of files whose extension leaves the type open (unknown or
 * non-text application types) only while a folder has at most this many of them. Bigger folders
 * are typed from the extension and size alone, as upstream with `typeDetectionByHeader` off: an
 * unknown small file is `text`, a known binary type is `blob`. Single-file requests always read.
 */
const LISTING_SNIFF_BUDGET = 1000;
const SNIFF_CONCURRENCY = 16;

const FOLDER_CODE = typeCode('');
const INVALID_LINK_CODE = typeCode('invalid_link');
const VIDEO_CODE = typeCode('video');

/** A folder's entries, typed and ordered, ready to be presented as objects or as JSON text. */
export type FolderListing = {
  /** The folder's own fields (everything but `items`, the counts and `sorting`). */
  folder: Resource;
  sorting: Sorting;
  /** Virtual path of the folder; item paths are built on it. */
  folderVirtual: string;
  scan: FolderScan;
  /** Entry indexes in the order they are listed. */
  order: number[];
  /** Type of each entry, by entry index, as its `TYPE_CODES` index. */
  types: Uint8Array;
  subtitles: Map<number, string[]>;
  numDirs: number;
  /**
   * Set when the listing holds only a folder's first entries (see `readFolderListing`'s
   * `first`): how many folders and files it has in all.
   */
  totals?: { dirs: number; files: number };
  /** Items the stat workers are writing for the listing's JSON (see `readFolderListing`'s `json`). */
  written?: Promise<WrittenItems[] | undefined>;
  /** The types those items are written with, by index in the names read (see `typeEntries`). */
  writtenTypes?: Uint8Array;
};

/** Whether ordering by this preference needs every entry's size or time, not only its name. */
const ordersByStats = (sorting: Sorting) => sorting.by === 'size' || sorting.by === 'modified';

/** Filler columns for ordering by name, which never reads sizes or times. */
const NoNumbers: ArrayLike<number> = { length: 0 };

/**
 * The first `first` entries of a big folder in the listing's order, found from the names and
 * entry types `readdir` gives, so that only those few are stat'ed: a 100,000-entry folder shows
 * its first rows in a fraction of the time a full listing takes. Links (and entries the file
 * system gives no type for) are followed as a listing follows them, to know whether they count
 * as folders. Answers the folder's names instead when it holds no more than `first` entries.
 */
async function readFolderHead(scope: Scope, folderReal: string, folderVirtual: string, sorting: Sorting, first: number): Promise<{ scan: FolderScan; totals: { dirs: number; files: number } } | { names: string[] }> {
  const entries = await fs.promises.readdir(folderReal, { withFileTypes: true });
  if (entries.length <= first) return { names: entries.map((entry) => entry.name) };
  const listable = listableNames(scope, folderReal, folderVirtual);
  // Read order is kept: it is the order of one preference, and the tie-break of the others.
  const names: string[] = [];
  const isDir: (boolean | undefined)[] = [];
  const toFollow: string[] = [];
  for (const entry of entries) {
    const known = entry.isDirectory() || entry.isFile() || entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice();
    if (!known) toFollow.push(entry.name);
    else if (listable && !listable(entry.name)) continue;
    names.push(entry.name);
    isDir.push(known ? entry.isDirectory() : undefined);
  }
  if (toFollow.length > 0) {
    const followed = await scanFolder(scope, folderReal, folderVirtual, toFollow);
    const followedIsDir = new Map<string, boolean>();
    for (let index = 0; index < followed.count; index++) followedIsDir.set(followed.names[index]!, (followed.flags[index]! & IS_DIR) !== 0);
    let kept = 0;
    for (let index = 0; index < names.length; index++) {
      const dir = isDir[index] ?? followedIsDir.get(names[index]!);
      // A link left out of the listing (leaving the scope, denied, unreadable) is not counted.
      if (dir === undefined) continue;
      names[kept] = names[index]!;
      isDir[kept++] = dir;
    }
    names.length = kept;
    isDir.length = kept;
  }
  if (names.length <= first) return { names: entries.map((entry) => entry.name) };
  const order = firstInOrder({ count: names.length, names, isDir: (index) => isDir[index]!, sizes: NoNumbers, mtimeSeconds: NoNumbers, mtimeNanos: NoNumbers }, sorting, first);
  let dirs = 0;
  for (const dir of isDir) if (dir) dirs++;
  const head = order.map((index) => names[index]!);
  return { scan: await scanFolder(scope, folderReal, folderVirtual, head), totals: { dirs, files: names.length - dirs } };
}

/**
 * Reads, types and orders the entries of a folder: entries denied by the rules or hidden
 * dotfiles are dropped, links are followed only inside the scope, dangling links are
 * `invalid_link`, unreadable entries are skipped, and videos get their subtitles. With `json`,
 * the listing is going to be written as JSON (`listingJson`), and the workers that stat a big
 * folder write its items meanwhile; with `version` too (the folder's identity and change times),
 * they keep its names and, when the next listing finds the same version, list them again while
 * the folder is read anew (see `EntryStatPool.restat`).
 */
export async function readFolderListing(
  scope: Scope,
  folder: Resource,
  folderReal: string,
  folderVirtual: string,
  sorting: Sorting,
  first?: number,
  options: { json?: boolean; version?: string } = {},
): Promise<FolderListing> {
  if (first !== undefined && !ordersByStats(sorting)) {
    const head = await readFolderHead(scope, folderReal, folderVirtual, sorting, first);
    if ('scan' in head) return typeAndOrder(scope, folder, folderReal, folderVirtual, sorting, head.scan, head.totals);
    return typeAndOrder(scope, folder, folderReal, folderVirtual, sorting, await scanFolder(scope, folderReal, folderVirtual, head.names));
  }
  const whole = options.json && first === undefined;
  // The workers list again what they hold of this folder from its last listing while it is read.
  const restat = whole && options.version !== undefined ? entryStatPool.restat(folderReal, folderVirtual, options.version) : undefined;
  let names: string[];
  try {
    names = await fs.promises.readdir(folderReal);
  } catch (error) {
    entryStatPool.dropRestat(restat);
    throw error;
  }
  // A big folder's items are written by the workers that stat it while this thread orders them.
  const big = whole && names.length >= WORKER_THRESHOLD;
  if (!big) entryStatPool.dropRestat(restat);
  const stats = big ? await entryStatPool.statAndWrite(folderReal, folderVirtual, names, { version: options.version, restat }) : undefined;
  const scan = await scanFolder(scope, folderReal, folderVirtual, names, undefined, stats?.columns);
  const typed = await stats?.typed;
  const listing = await typeAndOrder(scope, folder, folderReal, folderVirtual, sorting, scan, undefined, typed);
  if (typed) {
    listing.written = stats!.items;
    listing.writtenTypes = typed.types.typeCodes;
  }
  if (first === undefined || listing.order.length <= first) return listing;
  // Ordered by size or time: every entry had to be stat'ed; the answer is still cut short.
  listing.totals = { dirs: listing.numDirs, files: scan.count - listing.numDirs };
  listing.order = listing.order.slice(0, first);
  return listing;
}

/**
 * Types and orders scanned entries; `totals` marks a folder's first entries only, `typed` is how
 * the stat workers typed the names scanned (by their index there, see `typeEntries`) and the
 * names' order, when they know it.
 */
async function typeAndOrder(
  scope: Scope,
  folder: Resource,
  folderReal: string,
  folderVirtual: string,
  sorting: Sorting,
  scan: FolderScan,
  totals?: { dirs: number; files: number },
  typedNames?: TypedNames,
): Promise<FolderListing> {
  const { count, flags } = scan;
  const typed = typedNames?.types;

  const types = new Uint8Array(count);
  const toSniff: number[] = [];
  const typer = new EntryTyper();
  let numDirs = 0;
  for (let index = 0; index < count; index++) {
    const entryFlags = flags[index]!;
    if (entryFlags & IS_DIR) {
      types[index] = FOLDER_CODE;
      numDirs++;
      continue;
    }
    if (entryFlags & IS_DANGLING) {
      types[index] = INVALID_LINK_CODE;
      continue;
    }
    const code = typed && !(entryFlags & IS_SYMLINK) ? typed.typeCodes[scan.sources[index]!]! : NOT_WRITTEN;
    if (code !== NOT_WRITTEN) {
      types[index] = code;
      if (typed!.sniff[scan.sources[index]!]) toSniff.push(index);
      continue;
    }
    const name = scan.names[index]!;
    const decision = typer.decide(name, extensionOf(name), entryFlags, scan.sizes[index]!);
    types[index] = decision.code;
    if (decision.sniff) toSniff.push(index);
  }
  if (toSniff.length <= LISTING_SNIFF_BUDGET) {
    await mapLimit(toSniff, SNIFF_CONCURRENCY, async (index) => {
      types[index] = typeCode(await detectTypeOf(scan.names[index]!, realOf(scan, folderReal, index), { isFile: (flags[index]! & IS_FILE) !== 0, size: scan.sizes[index]! }, { sniff: true }));
    });
  }

  const order = sortOrder(
    {
      count,
      names: scan.names,
      isDir: (index) => (flags[index]! & IS_DIR) !== 0,
      sizes: scan.sizes,
      mtimeSeconds: scan.mtimeSeconds,
      mtimeNanos: scan.mtimeNanos,
    },
    sorting,
    // The workers' order holds for the entries scanned unless links were followed, which they leave out.
    scan.targets.size === 0 ? typedNames?.order : undefined,
  );

  const subtitles = new Map<number, string[]>();
  const videos: number[] = [];
  for (let index = 0; index < count; index++) if (types[index] === VIDEO_CODE) videos.push(index);
  if (videos.length > 0) {
    const files: string[] = [];
    const folders: string[] = [];
    for (let index = 0; index < count; index++) {
      if (flags[index]! & IS_DIR) folders.push(scan.names[index]!);
      else if (!(flags[index]! & IS_DANGLING)) files.push(scan.names[index]!);
    }
    // The first entries of a folder are not all its entries: the lookup reads the folder then.
    const lookup = createSubtitleLookup(folderReal, totals ? undefined : { files, folders });
    for (const index of videos) {
      const found = await subtitlesOf(scope, joinVirtual(folderVirtual, scan.names[index]!), lookup);
      if (found.length > 0) subtitles.set(index, found);
    }
  }
  return { folder, sorting: { by: sorting.by, asc: sorting.asc }, folderVirtual, scan, order, types, subtitles, numDirs, totals };
}

/** Folders and files a listing counts: all of the folder's, even when it holds only the first. */
function countsOf(listing: FolderListing): { numDirs: number; numFiles: number } {
  return listing.totals ? { numDirs: listing.totals.dirs, numFiles: listing.totals.files } : { numDirs: listing.numDirs, numFiles: listing.scan.count - listing.numDirs };
}

/** The listing as the protocol's object (for callers that adjust it before sending). */
export function listingResource(listing: FolderListing): Resource {
  const { scan, order } = listing;
  const items = new Array<ResourceItem>(order.length);
  for (let position = 0; position < order.length; position++) {
    const index = order[position]!;
    const name = scan.names[index]!;
    const flags = scan.flags[index]!;
    const item: ResourceItem = {
      path: joinVirtual(listing.folderVirtual, name),
      name,
      size: scan.sizes[index]!,
      extension: extensionOf(name),
      modified: formatModifiedParts(scan.mtimeSeconds[index]!, scan.mtimeNanos[index]!),
      mode: goFileMode(scan.modes[index]!),
      isDir: (flags & IS_DIR) !== 0,
      isSymlink: (flags & IS_SYMLINK) !== 0,
      type: TYPE_CODES[listing.types[index]!]!,
    };
    const found = listing.subtitles.get(index);
    if (found) item.subtitles = found;
    items[position] = item;
  }
  const resource: Resource = { ...listing.folder, items, ...countsOf(listing), sorting: listing.sorting };
  if (listing.totals) resource.partial = true;
  return resource;
}

/**
 * The listing as JSON, written directly into a buffer rather than through a 100,000-item object,
 * `JSON.stringify` and a 19 MB string: the same document `listingResource` serialises to, for a
 * fraction of the time and garbage. `written`: the items the stat workers wrote (see
 * `readFolderListing`'s `json`), taken where this listing has nothing to change in them. The
 * document comes in parts to be sent one after the other.
 */
export function listingJson(listing: FolderListing, written?: WrittenItems[]): Buffer[] {
  const { scan, order, types } = listing;
  // Written items come mostly from the workers' buffers, which are sent as they are.
  const items = new ItemWriter(listingHead(listing.folder), listing.folderVirtual, written ? 64 * 1024 : 256 + order.length * 200);
  const writtenTypes = listing.writtenTypes;
  const parts = writtenTypes && written?.map((part) => ({ first: part.first, bytes: Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.length), offsets: part.offsets }));
  // Written items that follow each other in a part are copied in one piece: a run.
  let run: NonNullable<typeof parts>[number] | undefined;
  let runStart = 0;
  let runEnd = 0;
  let runCount = 0;
  const endRun = () => {
    if (run) items.addWritten(run.bytes, runStart, runEnd, runCount);
    run = undefined;
  };
  for (let position = 0; position < order.length; position++) {
    const index = order[position]!;
    const found = listing.subtitles.size > 0 ? listing.subtitles.get(index) : undefined;
    if (parts && !found) {
      // The item a worker wrote, unless this listing types the entry otherwise (sniffed).
      const source = scan.sources[index]!;
      const part = parts.length > 1 && source >= parts[1]!.first ? parts[1]! : parts[0]!;
      const at = source - part.first;
      if (writtenTypes![source] === types[index]) {
        const start = part.offsets[at]!;
        if (run !== part || runEnd !== start) {
          endRun();
          run = part;
          runStart = start;
          runCount = 0;
        }
        runEnd = part.offsets[at + 1]!;
        runCount++;
        continue;
      }
    }
    endRun();
    const name = scan.names[index]!;
    items.add(
      name,
      extensionOf(name),
      scan.flags[index]!,
      scan.modes[index]!,
      scan.sizes[index]!,
      scan.mtimeSeconds[index]!,
      scan.mtimeNanos[index]!,
      types[index]!,
      found ? JSON.stringify(found) : undefined,
    );
  }
  endRun();
  const { numDirs, numFiles } = countsOf(listing);
  items.append(listingTail(numDirs, numFiles, listing.sorting, listing.totals !== undefined));
  return items.parts;
}

/** A listing's JSON up to its first item: the folder's own fields, then the items' opening. */
function listingHead(folder: Resource): string {
  return JSON.stringify(folder).slice(0, -1) + ',"items":[';
}

/** A listing's JSON after its last item: the counts and sorting, in the order the object form has. */
function listingTail(numDirs: number, numFiles: number, sorting: Sorting, partial: boolean): string {
  return `],"numDirs":${numDirs},"numFiles":${numFiles},"sorting":${JSON.stringify(sorting)}${partial ? ',"partial":true' : ''}}`;
}
