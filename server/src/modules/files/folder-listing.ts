import fs from 'node:fs';
import { TextInlineLimit, type Resource, type ResourceItem, type ResourceType, type Sorting } from '@burrow/protocol';
import type { Scope } from '../../storage/scoped-fs.js';
import { joinVirtual } from '../../storage/virtual-path.js';
import { formatModifiedParts, goFileMode } from './file-info.js';
import { createSubtitleLookup, detectTypeOf, needsSniff, subtitlesOf, typeWithoutContent } from './file-types.js';
import { IS_DANGLING, IS_DIR, IS_FILE, IS_SYMLINK, listableNames, realOf, scanFolder, type FolderScan } from './folder-scan.js';
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
  /** Type of each entry, by entry index. */
  types: ResourceType[];
  /** Extension of each entry (as `extensionOf` gives it), by entry index. */
  extensions: string[];
  subtitles: Map<number, string[]>;
  numDirs: number;
  /**
   * Set when the listing holds only a folder's first entries (see `readFolderListing`'s
   * `first`): how many folders and files it has in all.
   */
  totals?: { dirs: number; files: number };
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
 * `invalid_link`, unreadable entries are skipped, and videos get their subtitles.
 */
export async function readFolderListing(scope: Scope, folder: Resource, folderReal: string, folderVirtual: string, sorting: Sorting, first?: number): Promise<FolderListing> {
  if (first !== undefined && !ordersByStats(sorting)) {
    const head = await readFolderHead(scope, folderReal, folderVirtual, sorting, first);
    if ('scan' in head) return typeAndOrder(scope, folder, folderReal, folderVirtual, sorting, head.scan, head.totals);
    return typeAndOrder(scope, folder, folderReal, folderVirtual, sorting, await scanFolder(scope, folderReal, folderVirtual, head.names));
  }
  const scan = await scanFolder(scope, folderReal, folderVirtual, await fs.promises.readdir(folderReal));
  const listing = await typeAndOrder(scope, folder, folderReal, folderVirtual, sorting, scan);
  if (first === undefined || listing.order.length <= first) return listing;
  // Ordered by size or time: every entry had to be stat'ed; the answer is still cut short.
  listing.totals = { dirs: listing.numDirs, files: scan.count - listing.numDirs };
  listing.order = listing.order.slice(0, first);
  return listing;
}

/** Types and orders scanned entries; `totals` marks a folder's first entries only. */
async function typeAndOrder(
  scope: Scope,
  folder: Resource,
  folderReal: string,
  folderVirtual: string,
  sorting: Sorting,
  scan: FolderScan,
  totals?: { dirs: number; files: number },
): Promise<FolderListing> {
  const { count, flags } = scan;

  const types = new Array<ResourceType>(count);
  const extensions = new Array<string>(count);
  const shapeOf = (index: number) => ({ isFile: (flags[index]! & IS_FILE) !== 0, size: scan.sizes[index]! });
  const toSniff: number[] = [];
  // Extensions repeat a lot in big folders, and the type decision without content depends only
  // on the extension and on the size class (special file, empty, past the text limit, other):
  // it is worked out once per pair, one map per size class so no key has to be built.
  const decisions = [0, 1, 2, 3].map(() => new Map<string, { type: ResourceType; sniff: boolean }>());
  let numDirs = 0;
  for (let index = 0; index < count; index++) {
    const entryFlags = flags[index]!;
    const name = scan.names[index]!;
    const dot = name.lastIndexOf('.');
    const extension = dot < 0 ? '' : name.slice(dot);
    extensions[index] = extension;
    if (entryFlags & IS_DIR) {
      types[index] = '';
      numDirs++;
      continue;
    }
    if (entryFlags & IS_DANGLING) {
      types[index] = 'invalid_link';
      continue;
    }
    const size = scan.sizes[index]!;
    const byExtension = decisions[!(entryFlags & IS_FILE) ? 0 : size === 0 ? 1 : size > TextInlineLimit ? 2 : 3]!;
    let decision = byExtension.get(extension);
    if (decision === undefined) {
      const shape = shapeOf(index);
      decision = { type: typeWithoutContent(name, shape), sniff: needsSniff(name, shape) };
      byExtension.set(extension, decision);
    }
    types[index] = decision.type;
    if (decision.sniff) toSniff.push(index);
  }
  if (toSniff.length <= LISTING_SNIFF_BUDGET) {
    await mapLimit(toSniff, SNIFF_CONCURRENCY, async (index) => {
      types[index] = await detectTypeOf(scan.names[index]!, realOf(scan, folderReal, index), shapeOf(index), { sniff: true });
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
  );

  const subtitles = new Map<number, string[]>();
  const videos: number[] = [];
  for (let index = 0; index < count; index++) if (types[index] === 'video') videos.push(index);
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
  return { folder, sorting: { by: sorting.by, asc: sorting.asc }, folderVirtual, scan, order, types, extensions, subtitles, numDirs, totals };
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
      extension: listing.extensions[index]!,
      modified: formatModifiedParts(scan.mtimeSeconds[index]!, scan.mtimeNanos[index]!),
      mode: goFileMode(scan.modes[index]!),
      isDir: (flags & IS_DIR) !== 0,
      isSymlink: (flags & IS_SYMLINK) !== 0,
      type: listing.types[index]!,
    };
    const found = listing.subtitles.get(index);
    if (found) item.subtitles = found;
    items[position] = item;
  }
  const resource: Resource = { ...listing.folder, items, ...countsOf(listing), sorting: listing.sorting };
  if (listing.totals) resource.partial = true;
  return resource;
}

/** Characters that make a name's JSON form differ from the name between quotes. */
/** Anything but printable ASCII that JSON carries as it is (so not `"` or `\`). */
const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
// eslint-disable-next-line no-control-regex -- tests for ASCII, control characters included
const NOT_ASCII = /[^\x00-\x7f]/;
/** Types in a fixed order, so (mode, flags, type) can be one number. */
const TYPE_CODES: readonly ResourceType[] = ['', 'blob', 'text', 'textImmutable', 'video', 'audio', 'image', 'pdf', 'invalid_link'];

/** Collects UTF-8 text into one growing buffer. */
class TextBuffer {
  #buffer: Buffer;
  #length = 0;

  constructor(estimate: number) {
    this.#buffer = Buffer.allocUnsafe(Math.max(1024, estimate));
  }

  /**
   * Appends `text`; `ascii` says it has only ASCII characters, which are copied as they are
   * (latin1) without flattening the string first, as UTF-8 encoding needs to: for the ropes of
   * concatenations a listing builds, that halves the cost.
   */
  append(text: string, ascii = false): void {
    // Three bytes per UTF-16 unit is the most UTF-8 can need.
    const worst = this.#length + text.length * (ascii ? 1 : 3);
    if (worst > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(worst, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#length += this.#buffer.write(text, this.#length, ascii ? 'latin1' : 'utf8');
  }

  get bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}

/**
 * The listing as JSON, written directly into a buffer rather than through a 100,000-item object,
 * `JSON.stringify` and a 19 MB string: the same document `listingResource` serialises to, for a
 * fraction of the time and garbage. Most of an item's text is shared with others (the folder
 * path, the fields after the extension, the fields after the time), so each item is a handful of
 * concatenations of cached pieces.
 */
export function listingJson(listing: FolderListing): Buffer {
  const { scan, order, types } = listing;
  const folderPath = listing.folderVirtual === '/' ? '/' : listing.folderVirtual + '/';
  const pathPrefixJson = JSON.stringify(folderPath).slice(0, -1);
  const plainStart = '{"path":' + pathPrefixJson;
  const afterExtension = new Map<string, string>();
  const afterTime = new Map<number, string>();
  const text = new TextBuffer(256 + order.length * 200);
  text.append(JSON.stringify(listing.folder).slice(0, -1) + ',"items":[');
  let batch = '';
  // Whether everything in the batch so far is ASCII (see TextBuffer.append).
  const prefixAscii = !NOT_ASCII.test(pathPrefixJson);
  let batchAscii = prefixAscii;
  for (let position = 0; position < order.length; position++) {
    const index = order[position]!;
    const name = scan.names[index]!;
    const flags = scan.flags[index]!;
    const extension = listing.extensions[index]!;
    let middle = afterExtension.get(extension);
    if (middle === undefined) {
      middle = ',"extension":' + JSON.stringify(extension) + ',"modified":"';
      afterExtension.set(extension, middle);
    }
    const mode = goFileMode(scan.modes[index]!);
    const type = types[index]!;
    const key = (mode * 4 + ((flags & IS_DIR ? 1 : 0) | (flags & IS_SYMLINK ? 2 : 0))) * 16 + TYPE_CODES.indexOf(type);
    let end = afterTime.get(key);
    if (end === undefined) {
      end = `","mode":${mode},"isDir":${(flags & IS_DIR) !== 0},"isSymlink":${(flags & IS_SYMLINK) !== 0},"type":${JSON.stringify(type)}`;
      afterTime.set(key, end);
    }
    const found = listing.subtitles.get(index);
    const close = found ? ',"subtitles":' + JSON.stringify(found) + '}' : '}';
    const modified = formatModifiedParts(scan.mtimeSeconds[index]!, scan.mtimeNanos[index]!);
    if (position > 0) batch += ',';
    if (found && NOT_ASCII.test(close)) batchAscii = false;
    if (NOT_PLAIN.test(name)) {
      const nameJson = JSON.stringify(name);
      if (NOT_ASCII.test(nameJson)) batchAscii = false;
      batch += '{"path":' + pathPrefixJson + nameJson.slice(1) + ',"name":' + nameJson + ',"size":' + scan.sizes[index]! + middle + modified + end + close;
    } else {
      batch += plainStart + name + '","name":"' + name + '","size":' + scan.sizes[index]! + middle + modified + end + close;
    }
    if ((position & 255) === 255) {
      text.append(batch, batchAscii);
      batch = '';
      batchAscii = prefixAscii;
    }
  }
  const { numDirs, numFiles } = countsOf(listing);
  // The folder's fields, then the items, counts and sorting, in the order the object form has.
  text.append(`${batch}],"numDirs":${numDirs},"numFiles":${numFiles},"sorting":${JSON.stringify(listing.sorting)}${listing.totals ? ',"partial":true' : ''}}`);
  return text.bytes;
}
