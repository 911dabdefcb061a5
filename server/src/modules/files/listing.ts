import fs from 'node:fs';
import type { Permissions, RecursiveItem, Resource, ResourceType, Sorting } from '@burrow/protocol';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import { baseName, joinVirtual } from '../../storage/virtual-path.js';
import { badRequest, notFound } from '../../errors.js';
import { type AnyStats, extensionOf, formatModified, formatModifiedParts, goFileMode, mtimeNanoseconds } from './file-info.js';
import { detectType, subtitlesOf } from './file-types.js';
import { IS_DIR, IS_SYMLINK, realOf, scanFolder } from './folder-scan.js';
import { listingJson, listingResource, readFolderListing, type FolderListing } from './folder-listing.js';

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

/** Reads a folder for listing; see `readFolderListing`. */
async function readListing(scope: Scope, resolved: ResolvedPath, sorting: Sorting, first?: number, options: { json?: boolean } = {}): Promise<FolderListing> {
  if (!resolved.stat) throw notFound();
  if (!resolved.stat.isDirectory()) throw badRequest('not a folder');
  const folderStat = fs.statSync(resolved.real, { bigint: true });
  // Which folder this is, and when its entries last changed: a listing that finds the same can
  // have the stat workers start on the names they hold before the folder is read.
  const version = `${folderStat.dev}:${folderStat.ino}:${folderStat.mtimeNs}:${folderStat.ctimeNs}`;
  return readFolderListing(scope, resourceFields(resolved, folderStat, '', true), resolved.real, resolved.virtual, sorting, first, { ...options, version });
}

/**
 * A folder with its items, following the wire protocol: entries denied by the rules or hidden
 * dotfiles are dropped, links are followed only inside the scope, dangling links are
 * `invalid_link`, unreadable entries are skipped, and items are sorted by the given preference.
 * Paths are virtual paths of `scope`, so a narrowed share scope lists share-relative paths.
 */
export async function listFolder(scope: Scope, resolved: ResolvedPath, sorting: Sorting): Promise<Resource> {
  return listingResource(await readListing(scope, resolved, sorting));
}

/**
 * `listFolder` as UTF-8 JSON, ready to send as the parts given, one after the other: big folders
 * are answered without a huge object. With `first`, only the folder's first items (see
 * `Resource.partial`).
 */
export async function listFolderJson(scope: Scope, resolved: ResolvedPath, sorting: Sorting, first?: number): Promise<Buffer[]> {
  const listing = await readListing(scope, resolved, sorting, first, { json: true });
  return listingJson(listing, await listing.written);
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
    const scan = await scanFolder(scope, folderReal, folderVirtual, names, signal);
    for (let index = 0; index < scan.count; index++) {
      const name = scan.names[index]!;
      const virtual = joinVirtual(folderVirtual, name);
      const flags = scan.flags[index]!;
      const isDir = (flags & IS_DIR) !== 0;
      result.push({ path: virtual, name, size: scan.sizes[index]!, modified: formatModifiedParts(scan.mtimeSeconds[index]!, scan.mtimeNanos[index]!), isDir });
      if (isDir && !(flags & IS_SYMLINK)) await walk(realOf(scan, folderReal, index), virtual);
    }
  };
  await walk(resolved.real, resolved.virtual);
  return result;
}
