import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Scope } from '../../storage/scoped-fs.js';
import { baseName, cleanVirtualPath, isWithin, joinVirtual, parentOf } from '../../storage/virtual-path.js';

/** One item of an archive: a folder or a regular file, named relative to the archive root. */
export type ArchiveEntry = {
  /** Entry name: `/` separators, no leading `/`, every segment portable (see `safeSegment`). */
  name: string;
  kind: 'file' | 'directory';
  /**
   * Path to open the entry by (links already resolved and confined to the scope). Deep in a tree
   * it goes through a folder the walk holds open, so it is valid only until the walk moves on.
   */
  real: string;
  mode: number;
  mtime: Date;
};

export type ArchivePlan = {
  /** File name for the download, without the format suffix. */
  baseName: string;
  /** Selected canonical virtual paths, none inside another, each allowed by the rules. */
  selected: string[];
  /** Folder the entry names are relative to. */
  commonDir: string;
};

/** Device names Windows opens instead of a file, whatever the extension (`nul.txt` too). */
const RESERVED_WINDOWS_NAME = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i;

/**
 * One name as an archive may carry it (APPNOTE 4.4.17: relative, forward slashes, no drive or
 * device), so that no extractor reads it as something else. Backslashes are separators to
 * Windows extractors (`..\x` would climb out, zip-slip) and `:` makes a drive (`C:`) or an
 * alternate data stream: both become `_`. Windows drops trailing dots and spaces (`.. ` would
 * become `..`, `a.` would land on `a`): each becomes `_`. Reserved device names (`CON`, `nul.txt`,
 * `COM1`...) get a leading `_`. `.`, `..` and the empty name are refused (undefined).
 */
export function safeSegment(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return undefined;
  let safe = name.replace(/[\\:]/g, '_');
  const kept = safe.replace(/[. ]+$/, '');
  if (kept.length < safe.length) safe = kept + '_'.repeat(safe.length - kept.length);
  const dot = safe.indexOf('.');
  // Windows also ignores spaces between a device name and its extension (`CON .txt`).
  if (RESERVED_WINDOWS_NAME.test((dot === -1 ? safe : safe.slice(0, dot)).trimEnd())) safe = '_' + safe;
  return safe;
}

/** `base(n).ext`, the numbering copies use; `.ext` alone counts as a base. */
function numbered(name: string, counter: number): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? `${name}(${counter})` : `${name.slice(0, dot)}(${counter})${name.slice(dot)}`;
}

/**
 * Archive names for the entries of one folder, in the same order (undefined: left out). Names
 * that are already safe keep their spelling; a rewritten name that would meet a sibling's (`a:b`
 * beside `a_b`) is numbered until it is unique, so no entry overwrites another on extraction.
 * Only the names that go into the archive take part, so the numbering reveals nothing of entries
 * left out.
 */
export function folderEntryNames(names: readonly string[]): (string | undefined)[] {
  const safe = names.map(safeSegment);
  const taken = new Set<string>();
  names.forEach((name, index) => {
    if (safe[index] === name) taken.add(name);
  });
  return safe.map((candidate, index) => {
    if (candidate === undefined || candidate === names[index]) return candidate;
    let unique = candidate;
    for (let counter = 1; taken.has(unique); counter++) unique = numbered(candidate, counter);
    taken.add(unique);
    return unique;
  });
}

/** Entry name of a whole relative path, segment by segment (undefined when a segment is refused). */
export function archiveEntryName(relative: string): string | undefined {
  const segments: string[] = [];
  for (const segment of relative.split('/')) {
    const safe = safeSegment(segment);
    if (safe === undefined) return undefined;
    segments.push(safe);
  }
  return segments.join('/');
}

function commonFolder(paths: string[]): string {
  const split = paths.map((virtual) => (virtual === '/' ? [] : virtual.slice(1).split('/')));
  const first = split[0]!;
  let length = first.length;
  for (const segments of split.slice(1)) {
    let index = 0;
    while (index < length && index < segments.length && segments[index] === first[index]) index++;
    length = index;
  }
  return '/' + first.slice(0, length).join('/');
}

/**
 * Works out what an archive request covers. `base` is the requested folder (canonical virtual
 * path); `files` are the `files=` elements relative to it (already decoded), empty for the
 * folder itself. Each element passes the scope gate: denied, hidden or missing ones are left
 * out. When nothing remains the request fails with 403 (something was denied) or 404.
 */
export async function planArchive(scope: Scope, base: string, files: string[]): Promise<ArchivePlan> {
  const requested = files.length === 0 ? [base] : files.map((file) => cleanVirtualPath(joinVirtual(base, file.replace(/^\/+/, ''))).path);
  const found: { virtual: string; isDir: boolean }[] = [];
  let denied = false;
  for (const virtual of new Set(requested)) {
    if (virtual !== base && !scope.isListable(virtual)) {
      denied = true;
      continue;
    }
    try {
      const resolved = await scope.resolve(virtual, 'read');
      if (!resolved.stat || !(resolved.stat.isDirectory() || resolved.stat.isFile())) continue;
      found.push({ virtual: resolved.virtual, isDir: resolved.stat.isDirectory() });
    } catch (error) {
      if (error instanceof AppError) {
        if (error.status === 403) denied = true;
        else if (error.status !== 404) throw error;
      } else if (!isFilesystemError(error)) {
        throw error;
      }
    }
  }
  // A selected folder already contains anything selected below it.
  const selected = found.filter((item) => !found.some((other) => other.virtual !== item.virtual && other.isDir && isWithin(other.virtual, item.virtual)));
  if (selected.length === 0) throw denied ? forbidden() : notFound();

  const only = selected.length === 1 ? selected[0]! : undefined;
  // Distinct paths none of which contains another always share a proper ancestor folder.
  const commonDir = only ? (only.isDir ? only.virtual : parentOf(only.virtual)) : commonFolder(selected.map((item) => item.virtual));
  let name = commonDir !== '/' ? baseName(commonDir) : base !== '/' ? baseName(base) : path.basename(scope.root);
  if (requested.length > 1) name = '_' + name;
  return { baseName: name, selected: selected.map((item) => item.virtual), commonDir };
}

/** Missing or unreadable entries (any errno failure) are left out rather than failing the request. */
function isFilesystemError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code.startsWith('E');
}

/** Stat identity of a folder, for recognising a link back to a folder being walked. */
function identity(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}`;
}

/**
 * Names of the selected items, relative to the common folder. Their segments are made safe and
 * unique among siblings as inside folders, over the tree the selection spans (two selected
 * folders `x:` and `x_` must not merge into one).
 */
function selectedNames(commonDir: string, selected: readonly string[]): Map<string, string | undefined> {
  type Node = { children: Map<string, Node>; name: string | undefined };
  const top: Node = { children: new Map(), name: '' };
  const leaves = new Map<string, Node>();
  for (const virtual of selected) {
    let node = top;
    const relative = commonDir === '/' ? virtual.slice(1) : virtual.slice(commonDir.length + 1);
    if (relative !== '') {
      for (const segment of relative.split('/')) {
        let child = node.children.get(segment);
        if (!child) node.children.set(segment, (child = { children: new Map(), name: undefined }));
        node = child;
      }
    }
    leaves.set(virtual, node);
  }
  const pending: Node[] = [top];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const names = [...node.children.keys()].sort();
    const safe = folderEntryNames(names);
    names.forEach((segment, index) => {
      const child = node.children.get(segment)!;
      const own = safe[index];
      child.name = node.name === undefined || own === undefined ? undefined : node.name === '' ? own : `${node.name}/${own}`;
      pending.push(child);
    });
  }
  const result = new Map<string, string | undefined>();
  for (const [virtual, node] of leaves) result.set(virtual, node.name);
  return result;
}

/**
 * Deep trees are walked through open folders: past `ANCHOR_SEGMENTS` levels or `ANCHOR_BYTES` of
 * path, the walk opens the folder it enters and reaches what lies below through that descriptor
 * (`/proc/self/fd/N/...`). Each system call then resolves a short path whatever the depth, so the
 * walk stays linear in the number of entries and trees deeper than PATH_MAX are archived whole,
 * while only one descriptor per `ANCHOR_SEGMENTS` levels is held.
 */
const ANCHOR_SEGMENTS = 32;
const ANCHOR_BYTES = 2048;
const FD_FOLDER = '/proc/self/fd';
let canAnchor: boolean | undefined;

function anchorsAvailable(): boolean {
  if (canAnchor === undefined) {
    try {
      canAnchor = process.platform === 'linux' && fs.statSync(FD_FOLDER, { throwIfNoEntry: false })?.isDirectory() === true;
    } catch {
      canAnchor = false;
    }
  }
  return canAnchor;
}

/** A folder being walked: its children are taken one at a time. */
type Frame = {
  virtual: string;
  /** Archive name of the folder ('' for the archive root). */
  name: string;
  /** Path of the folder, ending in `/`: a real path, or one below an anchor this frame or an outer one holds. */
  prefix: string;
  /** Segments of `prefix` below its anchor (or its start). */
  depth: number;
  /** The folder's own descriptor, when it is an anchor; closed when the frame is left. */
  anchor?: FileHandle;
  id: string;
  children: string[];
  names: (string | undefined)[];
  next: number;
  /** Where the folder really is in the scope, when links led there from elsewhere. */
  landed?: string;
};

type Found = { virtual: string; name: string; path: string; depth: number; stat: fs.Stats; landed?: string };

/** The virtual path of a folder's real place, when a link made it differ from the one requested. */
function landedAt(scope: Scope, real: string, virtual: string): string | undefined {
  if (!scope.hasDenials) return undefined;
  const landed = scope.toVirtual(real);
  return landed !== virtual ? landed : undefined;
}

/**
 * Walks the plan lazily, depth first, names sorted within each folder so archives come out the
 * same every time. Entries are rechecked against the scope on the way: denied and hidden names,
 * links that leave the scope, special files and unreadable folders are skipped silently. A link
 * back to a folder being walked is skipped too, so loops end. The walk keeps its own stack (no
 * recursion), builds each name from its parent's, and never re-resolves a path from the top, so
 * each entry costs the same at any depth.
 */
export async function* walkArchive(scope: Scope, plan: ArchivePlan, signal?: AbortSignal): AsyncGenerator<ArchiveEntry> {
  const names = selectedNames(plan.commonDir, plan.selected);
  for (const virtual of plan.selected) {
    if (signal?.aborted) return;
    const name = virtual === plan.commonDir ? '' : names.get(virtual);
    if (name === undefined) continue;
    let resolved;
    try {
      resolved = await scope.resolve(virtual, 'read');
    } catch {
      continue;
    }
    if (!resolved.stat) continue;
    yield* walkTree(scope, { virtual, name, path: resolved.real, depth: 0, stat: resolved.stat, landed: landedAt(scope, resolved.real, virtual) }, signal);
  }
}

async function* walkTree(scope: Scope, top: Found, signal: AbortSignal | undefined): AsyncGenerator<ArchiveEntry> {
  if (top.stat.isFile()) {
    if (top.name) yield { name: top.name, kind: 'file', real: top.path, mode: top.stat.mode & 0o7777, mtime: top.stat.mtime };
    return;
  }
  if (!top.stat.isDirectory()) return;
  // Without rules or hidden dotfiles every name is listable: no full path is built to check it.
  const everyNameListable = !scope.hasRules && !scope.hideDotfiles;
  const stack: Frame[] = [];
  const ancestors = new Set<string>();
  try {
    if (top.name) yield { name: top.name, kind: 'directory', real: top.path, mode: top.stat.mode & 0o7777, mtime: top.stat.mtime };
    const first = await enterFolder(scope, top, everyNameListable);
    if (!first) return;
    stack.push(first);
    ancestors.add(first.id);
    while (stack.length > 0) {
      if (signal?.aborted) return;
      const frame = stack[stack.length - 1]!;
      if (frame.next >= frame.children.length) {
        stack.pop();
        ancestors.delete(frame.id);
        await frame.anchor?.close().catch(() => undefined);
        continue;
      }
      const index = frame.next++;
      const name = frame.names[index];
      if (name === undefined) continue;
      const child = frame.children[index]!;
      const childVirtual = joinVirtual(frame.virtual, child);
      const entryName = frame.name ? `${frame.name}/${name}` : name;
      let childPath = frame.prefix + child;
      let depth = frame.depth + 1;
      let landed = frame.landed === undefined ? undefined : joinVirtual(frame.landed, child);
      let stat: fs.Stats;
      try {
        stat = await fsp.lstat(childPath);
        if (stat.isSymbolicLink()) {
          // Links go back through the gate, which follows them only while they stay inside and
          // lead somewhere the rules and hidden dotfiles allow.
          const target = await scope.resolveClean(childVirtual, false, 'read');
          if (!target.stat || target.stat.isSymbolicLink()) continue;
          childPath = target.real;
          depth = 0;
          stat = target.stat;
          landed = landedAt(scope, target.real, childVirtual);
        }
      } catch {
        continue;
      }
      const mode = stat.mode & 0o7777;
      if (stat.isFile()) {
        yield { name: entryName, kind: 'file', real: childPath, mode, mtime: stat.mtime };
        continue;
      }
      if (!stat.isDirectory() || ancestors.has(identity(stat))) continue;
      yield { name: entryName, kind: 'directory', real: childPath, mode, mtime: stat.mtime };
      const entered = await enterFolder(scope, { virtual: childVirtual, name: entryName, path: childPath, depth, stat, landed }, everyNameListable);
      if (!entered) continue;
      stack.push(entered);
      ancestors.add(entered.id);
    }
  } finally {
    for (const frame of stack) await frame.anchor?.close().catch(() => undefined);
  }
}

/** Reads a folder's listable children and names them; undefined when it cannot be read. */
async function enterFolder(scope: Scope, folder: Found, everyNameListable: boolean): Promise<Frame | undefined> {
  let anchor: FileHandle | undefined;
  let place = folder.path;
  let depth = folder.depth;
  try {
    if (anchorsAvailable() && (depth >= ANCHOR_SEGMENTS || Buffer.byteLength(place) >= ANCHOR_BYTES)) {
      anchor = await fsp.open(place, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
      const opened = await anchor.stat();
      // The folder that was looked at, not one swapped in since.
      if (opened.dev !== folder.stat.dev || opened.ino !== folder.stat.ino) throw new Error('folder replaced during the walk');
      place = `${FD_FOLDER}/${anchor.fd}`;
      depth = 0;
    }
    const listed = (await fsp.readdir(place)).sort();
    // A folder reached through a link is judged where it really is too, as the gate judges it.
    const { landed } = folder;
    const children = everyNameListable
      ? listed
      : listed.filter((child) => scope.isListable(joinVirtual(folder.virtual, child)) && (landed === undefined || scope.isListable(joinVirtual(landed, child))));
    return {
      virtual: folder.virtual,
      name: folder.name,
      prefix: place.endsWith('/') ? place : place + '/',
      depth,
      anchor,
      id: identity(folder.stat),
      children,
      names: folderEntryNames(children),
      next: 0,
      landed,
    };
  } catch {
    await anchor?.close().catch(() => undefined);
    return undefined;
  }
}
