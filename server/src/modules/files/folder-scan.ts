import fs from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Scope } from '../../storage/scoped-fs.js';
import { joinVirtual } from '../../storage/virtual-path.js';
import { createStatColumns, IS_DANGLING, IS_PRESENT, IS_SYMLINK, recordStat, statEntries, type StatColumns } from './entry-stats.js';
import { entryStatPool } from './entry-stats-pool.js';

export { IS_DANGLING, IS_DIR, IS_FILE, IS_SYMLINK } from './entry-stats.js';

/** The listable entries of one folder: names and their stats in packed columns, same slots. */
export type FolderScan = StatColumns & {
  count: number;
  names: readonly string[];
  /** Where followed links lead (entry index → real path); other entries live in the folder. */
  targets: Map<number, string>;
  /** Index of each entry in the names scanned. */
  sources: Uint32Array;
};

/** Folders with at least this many entries are stat'ed by the worker threads. */
export const WORKER_THRESHOLD = 2048;
/** Longest stretch of synchronous stats before other requests get a turn. */
const SLICE_MS = 8;
const SLICE_ENTRIES = 256;

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR';
};

/** `folderReal` + `/` + name, for a folder that may be `/` itself. */
function entryPrefix(folderReal: string): string {
  return folderReal.endsWith('/') ? folderReal : folderReal + '/';
}

/** The real path of scanned entry `index` (a link's target for followed links). */
export function realOf(scan: FolderScan, folderReal: string, index: number): string {
  return scan.targets.get(index) ?? entryPrefix(folderReal) + scan.names[index]!;
}

/**
 * Stats on this thread in time slices. On the two-core machines Burrow targets, synchronous
 * stat calls cost a fraction of the same calls through the libuv thread pool (callbacks,
 * promises), and yielding every few milliseconds keeps other requests served meanwhile.
 */
async function statInSlices(folder: string, names: readonly string[], signal?: AbortSignal): Promise<StatColumns> {
  const columns = createStatColumns(names.length);
  let index = 0;
  while (index < names.length) {
    const sliceEnd = performance.now() + SLICE_MS;
    do {
      const end = Math.min(names.length, index + SLICE_ENTRIES);
      statEntries(folder, names, columns, index, end);
      index = end;
    } while (index < names.length && performance.now() < sliceEnd);
    if (index < names.length) {
      await yieldToLoop();
      signal?.throwIfAborted();
    }
  }
  return columns;
}

/**
 * Whether the rules and hidden dotfiles let a folder's entry be listed, by its name; undefined
 * when every name may be, so callers skip building 100,000 paths. A folder reached through a
 * link lives elsewhere in the scope: its entries must be allowed where they really are too, as
 * the gate requires when one of them is requested. Links are judged further by `scanFolder`.
 */
export function listableNames(scope: Scope, folderReal: string, folderVirtual: string): ((name: string) => boolean) | undefined {
  if (!scope.hasDenials) return undefined;
  const landedFolder = scope.toVirtual(folderReal);
  const elsewhere = landedFolder !== undefined && landedFolder !== folderVirtual ? landedFolder : undefined;
  return (name) => scope.isListable(joinVirtual(folderVirtual, name)) && (elsewhere === undefined || scope.isListable(joinVirtual(elsewhere, name)));
}

/**
 * Stats the entries of a folder. Dropped silently: names the rules deny or hide, entries that
 * vanish or cannot be read, links that leave the scope (unless external links are allowed) and links whose target the rules deny or hide. Links inside are followed (their target's stat is recorded);
 * dangling links are kept, flagged, with the link's own stat. Big folders are stat'ed by worker
 * threads (`given`: the names' stats, already made); every decision about what may be listed is
 * taken here.
 */
export async function scanFolder(scope: Scope, folderReal: string, folderVirtual: string, names: readonly string[], signal?: AbortSignal, given?: StatColumns): Promise<FolderScan> {
  const prefix = entryPrefix(folderReal);
  const stats = given ?? (names.length >= WORKER_THRESHOLD ? await entryStatPool.stat(folderReal, names) : undefined) ?? (await statInSlices(folderReal, names, signal));
  signal?.throwIfAborted();

  const listable = listableNames(scope, folderReal, folderVirtual);
  if (!listable && everyEntryPlain(stats.flags)) {
    // Nothing to drop or follow: the names and stats are the scan as they are.
    const sources = new Uint32Array(names.length);
    for (let index = 0; index < sources.length; index++) sources[index] = index;
    return { ...stats, count: names.length, names, targets: new Map(), sources };
  }
  const kept = new Array<string>(names.length);
  const scan: FolderScan = { ...createStatColumns(names.length), count: 0, names: kept, targets: new Map(), sources: new Uint32Array(names.length) };
  let count = 0;
  for (let index = 0; index < names.length; index++) {
    const flags = stats.flags[index]!;
    if (!(flags & IS_PRESENT)) continue;
    const name = names[index]!;
    if (listable && !listable(name)) continue;
    if (flags & IS_SYMLINK) {
      const followed = followLink(scope, prefix + name);
      if (followed === undefined) continue;
      if (followed === 'dangling') {
        const own = lstatOrUndefined(prefix + name);
        if (!own) continue;
        recordStat(scan, count, own, IS_SYMLINK | IS_DANGLING);
      } else {
        recordStat(scan, count, followed.stat, IS_SYMLINK);
        scan.targets.set(count, followed.target);
      }
    } else {
      scan.flags[count] = flags;
      scan.modes[count] = stats.modes[index]!;
      scan.sizes[count] = stats.sizes[index]!;
      scan.mtimeSeconds[count] = stats.mtimeSeconds[index]!;
      scan.mtimeNanos[count] = stats.mtimeNanos[index]!;
    }
    kept[count] = name;
    scan.sources[count] = index;
    count++;
  }
  scan.count = count;
  kept.length = count;
  return scan;
}

/** Whether every entry could be stat'ed and none is a link. */
function everyEntryPlain(flags: Uint8Array): boolean {
  for (let index = 0; index < flags.length; index++) if ((flags[index]! & (IS_PRESENT | IS_SYMLINK)) !== IS_PRESENT) return false;
  return true;
}

function lstatOrUndefined(real: string): fs.BigIntStats | undefined {
  try {
    return fs.lstatSync(real, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Follows a link found in a listing: its target and stat when it stays inside the scope (or
 * external links are allowed), 'dangling' when nothing is behind it, undefined when it must
 * not appear (escaping, unreadable, or landing on a place the rules or hidden dotfiles deny).
 * A link to a denied target is left out rather than shown as a bare link: the gate refuses it
 * with 403 like the target itself, so it is treated as the denied entry it stands for, just as
 * links leaving the scope are; showing it would also tell that the denied target exists.
 */
function followLink(scope: Scope, link: string): { target: string; stat: fs.BigIntStats } | 'dangling' | undefined {
  let target: string;
  try {
    target = fs.realpathSync.native(link);
  } catch (error) {
    return isMissing(error) ? 'dangling' : undefined;
  }
  if (!scope.isInside(target) && !scope.followExternalSymlinks) return undefined;
  if (!scope.allowsLanding(target)) return undefined;
  try {
    return { target, stat: fs.statSync(target, { bigint: true }) };
  } catch {
    return undefined;
  }
}
