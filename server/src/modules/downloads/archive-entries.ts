import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Scope } from '../../storage/scoped-fs.js';
import { baseName, cleanVirtualPath, isWithin, joinVirtual, parentOf } from '../../storage/virtual-path.js';

/** One item of an archive: a folder or a regular file, named relative to the archive root. */
export type ArchiveEntry = {
  /** Entry name: `/` separators, no leading `/`, no `.` or `..` segments, no `\`. */
  name: string;
  kind: 'file' | 'directory';
  /** Real path to read (links already resolved and confined to the scope). */
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

/**
 * Entry name from a path relative to the archive root. A backslash is an ordinary name
 * character on POSIX but a separator to Windows extractors, so `..\x` could climb out of the
 * extraction folder (zip-slip); it becomes `_`. Segments that still read as `.` or `..` are
 * refused.
 */
export function archiveEntryName(relative: string): string | undefined {
  const segments = relative.split('/').map((segment) => segment.replace(/\\/g, '_'));
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
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

function relativeTo(commonDir: string, virtual: string): string {
  return commonDir === '/' ? virtual.slice(1) : virtual.slice(commonDir.length + 1);
}

function identity(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}`;
}

/**
 * Walks the plan lazily, depth first, names sorted within each folder so archives come out the
 * same every time. Entries are rechecked against the scope on the way: denied and hidden names,
 * links that leave the scope, special files and unreadable folders are skipped silently. A link
 * back to a folder being walked is skipped too, so loops end.
 */
export async function* walkArchive(scope: Scope, plan: ArchivePlan, signal?: AbortSignal): AsyncGenerator<ArchiveEntry> {
  for (const virtual of plan.selected) {
    if (signal?.aborted) return;
    let resolved;
    try {
      resolved = await scope.resolve(virtual, 'read');
    } catch {
      continue;
    }
    if (!resolved.stat) continue;
    yield* walkEntry(scope, plan.commonDir, virtual, resolved.real, resolved.stat, new Set(), signal);
  }
}

async function* walkEntry(
  scope: Scope,
  commonDir: string,
  virtual: string,
  real: string,
  stat: fs.Stats,
  ancestors: Set<string>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ArchiveEntry> {
  const isRoot = virtual === commonDir;
  const name = isRoot ? '' : archiveEntryName(relativeTo(commonDir, virtual));
  if (name === undefined) return;
  if (stat.isFile()) {
    if (name) yield { name, kind: 'file', real, mode: stat.mode & 0o7777, mtime: stat.mtime };
    return;
  }
  if (!stat.isDirectory()) return;
  const id = identity(stat);
  if (ancestors.has(id)) return;
  if (name) yield { name, kind: 'directory', real, mode: stat.mode & 0o7777, mtime: stat.mtime };

  let names: string[];
  try {
    names = (await fsp.readdir(real)).sort();
  } catch {
    return;
  }
  ancestors.add(id);
  try {
    for (const child of names) {
      if (signal?.aborted) return;
      const childVirtual = joinVirtual(virtual, child);
      if (!scope.isListable(childVirtual)) continue;
      let childReal = path.join(real, child);
      let childStat: fs.Stats;
      try {
        childStat = await fsp.lstat(childReal);
        if (childStat.isSymbolicLink()) {
          // Links go back through the gate, which follows them only while they stay inside.
          const target = await scope.resolveClean(childVirtual, false, 'read');
          if (!target.stat || target.stat.isSymbolicLink()) continue;
          childReal = target.real;
          childStat = target.stat;
        }
      } catch {
        continue;
      }
      yield* walkEntry(scope, commonDir, childVirtual, childReal, childStat, ancestors, signal);
    }
  } finally {
    ancestors.delete(id);
  }
}
