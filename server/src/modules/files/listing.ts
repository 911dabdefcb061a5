import fs from 'node:fs';
import path from 'node:path';
import type { Permissions, RecursiveItem, Resource, ResourceItem, ResourceType, Sorting } from '@burrow/protocol';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import { baseName, joinVirtual } from '../../storage/virtual-path.js';
import { badRequest, notFound } from '../../errors.js';
import { type AnyStats, extensionOf, formatModified, goFileMode, isStagingName, mtimeNanoseconds } from './file-info.js';
import { createSubtitleLookup, detectType, detectTypeOf, needsSniff, subtitlesOf, typeWithoutContent } from './file-types.js';
import { sortEntries } from './sorting.js';
import { mapLimit } from './concurrency.js';
import { mapInSlices } from './chunked.js';

/**
 * Listings read the first bytes of files whose extension leaves the type open (unknown or
 * non-text application types) only while a folder has at most this many of them. Bigger folders
 * are typed from the extension and size alone, as upstream with `typeDetectionByHeader` off: an
 * unknown small file is `text`, a known binary type is `blob`. Single-file requests always read.
 */
export const LISTING_SNIFF_BUDGET = 1000;
const SNIFF_CONCURRENCY = 16;

/**
 * One entry of a folder as the listing sees it. Only the few values needed are kept: holding
 * 100,000 stat objects (each with a dozen BigInts and four Dates) alive until the reply doubled
 * the time of big listings in garbage collection.
 */
type ListedEntry = {
  name: string;
  virtual: string;
  /** Where the content lives (the link target for followed links). */
  real: string;
  mode: number;
  isFile: boolean;
  isDir: boolean;
  isSymlink: boolean;
  isDangling: boolean;
  size: number;
  mtimeNs: bigint;
  type: ResourceType;
};

function itemOf(entry: ListedEntry): ResourceItem {
  return {
    path: entry.virtual,
    name: entry.name,
    size: entry.size,
    extension: extensionOf(entry.name),
    modified: formatModified(entry.mtimeNs),
    mode: goFileMode(entry.mode),
    isDir: entry.isDir,
    isSymlink: entry.isSymlink,
    type: entry.type,
  };
}

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR';
};

function listedEntry(name: string, virtual: string, real: string, stat: fs.BigIntStats, isSymlink: boolean, isDangling: boolean): ListedEntry {
  const isDir = !isDangling && stat.isDirectory();
  return {
    name,
    virtual,
    real,
    mode: Number(stat.mode),
    isFile: !isDangling && stat.isFile(),
    isDir,
    isSymlink,
    isDangling,
    size: Number(stat.size),
    mtimeNs: stat.mtimeNs,
    type: isDir ? '' : isDangling ? 'invalid_link' : 'blob',
  };
}

/**
 * Stats one folder entry without following links, then follows a link only when its target stays
 * inside the scope (or external links are allowed). Returns undefined for entries that must not
 * appear: escaping links and anything unreadable. Synchronous on purpose (see `mapInSlices`).
 */
function statEntry(scope: Scope, folderReal: string, name: string, virtual: string): ListedEntry | undefined {
  const entryReal = path.join(folderReal, name);
  let lstat: fs.BigIntStats;
  try {
    lstat = fs.lstatSync(entryReal, { bigint: true });
  } catch {
    return undefined;
  }
  if (!lstat.isSymbolicLink()) return listedEntry(name, virtual, entryReal, lstat, false, false);
  let target: string;
  try {
    target = fs.realpathSync.native(entryReal);
  } catch (error) {
    // A dangling link is listed as itself, typed invalid_link.
    return isMissing(error) ? listedEntry(name, virtual, entryReal, lstat, true, true) : undefined;
  }
  if (!scope.isInside(target) && !scope.followExternalSymlinks) return undefined;
  try {
    return listedEntry(name, virtual, target, fs.statSync(target, { bigint: true }), true, false);
  } catch {
    return undefined;
  }
}

/** The fields of a resource itself (the folder or file requested). */
function resourceFields(resolved: ResolvedPath, stat: AnyStats, type: ResourceType, echoSlash: boolean): Resource {
  const name = resolved.virtual === '/' ? '' : baseName(resolved.virtual);
  const isDir = stat.isDirectory();
  return {
    path: echoSlash && resolved.trailingSlash && resolved.virtual !== '/' ? resolved.virtual + '/' : resolved.virtual,
    name,
    size: Number(stat.size),
    extension: extensionOf(name),
    modified: formatModified(mtimeNanoseconds(stat)),
    mode: goFileMode(Number(stat.mode)),
    isDir,
    isSymlink: resolved.isSymlink,
    type,
  };
}

/**
 * A folder with its items, following the wire protocol: entries denied by the rules or hidden
 * dotfiles are dropped, links are followed only inside the scope, dangling links are
 * `invalid_link`, unreadable entries are skipped, and items are sorted by the given preference.
 * Paths are virtual paths of `scope`, so a narrowed share scope lists share-relative paths.
 */
export async function listFolder(scope: Scope, resolved: ResolvedPath, sorting: Sorting): Promise<Resource> {
  if (!resolved.stat) throw notFound();
  if (!resolved.stat.isDirectory()) throw badRequest('not a folder');
  const folderStat = fs.statSync(resolved.real, { bigint: true });
  const dirents = await fs.promises.readdir(resolved.real);
  const listed = await mapInSlices(dirents, (name) => {
    if (isStagingName(name)) return undefined;
    const virtual = joinVirtual(resolved.virtual, name);
    if (!scope.isListable(virtual)) return undefined;
    return statEntry(scope, resolved.real, name, virtual);
  });
  const entries = listed.filter((entry): entry is ListedEntry => entry !== undefined);

  const files = entries.filter((entry) => !entry.isDir && !entry.isDangling);
  const toSniff = files.filter((entry) => needsSniff(entry.name, entry));
  for (const entry of files) entry.type = typeWithoutContent(entry.name, entry);
  if (toSniff.length <= LISTING_SNIFF_BUDGET) {
    await mapLimit(toSniff, SNIFF_CONCURRENCY, async (entry) => {
      entry.type = await detectTypeOf(entry.name, entry.real, entry, { sniff: true });
    });
  }

  sortEntries(entries, sorting);

  const subtitles = new Map<ListedEntry, string[]>();
  const videos = files.filter((entry) => entry.type === 'video');
  if (videos.length > 0) {
    const lookup = createSubtitleLookup(resolved.real, {
      files: files.map((entry) => entry.name),
      folders: entries.filter((entry) => entry.isDir).map((entry) => entry.name),
    });
    for (const video of videos) {
      const found = await subtitlesOf(scope, video.virtual, lookup);
      if (found.length > 0) subtitles.set(video, found);
    }
  }

  let numDirs = 0;
  const items = new Array<ResourceItem>(entries.length);
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.isDir) numDirs++;
    const item = itemOf(entry);
    const found = subtitles.get(entry);
    if (found) item.subtitles = found;
    items[index] = item;
  }
  return {
    ...resourceFields(resolved, folderStat, '', true),
    items,
    numDirs,
    numFiles: entries.length - numDirs,
    sorting: { by: sorting.by, asc: sorting.asc },
  };
}

/** Who is looking at a single file: decides `textImmutable` and whether content is sent. */
export type DescribeOptions = {
  /** Include `content` for text files (the viewer has `download`). */
  content: boolean;
  /** The acting user (or a share's owner); without `modify` text becomes `textImmutable`. */
  user: { perm: Pick<Permissions, 'modify'> };
};

/** Reads at most `limit` bytes of a file as UTF-8 (invalid sequences become U+FFFD). */
async function readText(real: string, limit: number): Promise<string> {
  const handle = await fs.promises.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return '';
    const length = Math.min(stat.size, limit);
    const buffer = Buffer.alloc(length);
    let offset = 0;
    while (offset < length) {
      const { bytesRead } = await handle.read(buffer, offset, length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A single file: its item fields, `content` for text files when allowed, `subtitles` for videos.
 * A dangling link is described as itself with type `invalid_link`.
 */
export async function describeFile(scope: Scope, resolved: ResolvedPath, options: DescribeOptions): Promise<Resource> {
  if (!resolved.stat) throw notFound();
  if (resolved.stat.isSymbolicLink()) {
    const linkStat = fs.lstatSync(resolved.real, { bigint: true });
    return resourceFields(resolved, linkStat, 'invalid_link', false);
  }
  const stat = fs.statSync(resolved.real, { bigint: true });
  const name = baseName(resolved.virtual);
  let type = await detectType(name, resolved.real, stat, { sniff: true });
  const resource = resourceFields(resolved, stat, type, false);
  if (type === 'text') {
    if (options.content) resource.content = await readText(resolved.real, Number(stat.size));
    if (!options.user.perm.modify) type = 'textImmutable';
    resource.type = type;
  } else if (type === 'video') {
    const found = await subtitlesOf(scope, resolved.virtual);
    if (found.length > 0) resource.subtitles = found;
  }
  return resource;
}

/** A folder listing or a single file, whichever `resolved` is. */
export async function describeResource(scope: Scope, resolved: ResolvedPath, options: DescribeOptions & { sorting: Sorting }): Promise<Resource> {
  if (!resolved.stat) throw notFound();
  if (resolved.stat.isDirectory()) return listFolder(scope, resolved, options.sorting);
  return describeFile(scope, resolved, options);
}

/**
 * Every descendant of a folder except itself, depth-first in lexical order. Denied or hidden
 * entries are dropped with their subtree; links are listed (when they stay in the scope) but
 * never descended, so loops cannot occur. Stops with an AbortError once `signal` fires.
 */
export async function listRecursive(scope: Scope, resolved: ResolvedPath, signal?: AbortSignal): Promise<RecursiveItem[]> {
  if (!resolved.stat) throw notFound();
  if (!resolved.stat.isDirectory()) throw badRequest('not a folder');
  const result: RecursiveItem[] = [];
  const walk = async (folderReal: string, folderVirtual: string): Promise<void> => {
    signal?.throwIfAborted();
    let names: string[];
    try {
      names = await fs.promises.readdir(folderReal);
    } catch {
      return;
    }
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const entries = await mapInSlices(
      names,
      (name) => {
        if (isStagingName(name)) return undefined;
        const virtual = joinVirtual(folderVirtual, name);
        if (!scope.isListable(virtual)) return undefined;
        return statEntry(scope, folderReal, name, virtual);
      },
      signal,
    );
    for (const entry of entries) {
      if (!entry) continue;
      result.push({ path: entry.virtual, name: entry.name, size: entry.size, modified: formatModified(entry.mtimeNs), isDir: entry.isDir });
      if (entry.isDir && !entry.isSymlink) await walk(entry.real, entry.virtual);
    }
  };
  await walk(resolved.real, resolved.virtual);
  return result;
}
