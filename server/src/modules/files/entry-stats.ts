import fs from 'node:fs';
import { openForStatx, statxAt, type StatxResult } from './statx.js';

/** Entry flags. A link is only flagged here; following it is the scope's decision. */
export const IS_DIR = 1;
export const IS_FILE = 2;
export const IS_SYMLINK = 4;
export const IS_DANGLING = 8;
/** Set for every entry that could be stat'ed (so 0 means vanished or unreadable). */
export const IS_PRESENT = 16;

/**
 * `lstat` results of a run of folder entries, one slot per name in packed arrays. Numbers in
 * typed arrays cost the garbage collector nothing, unlike 100,000 stat objects with a dozen
 * BigInts and four Dates each; they also cross to and from worker threads without copying.
 */
export type StatColumns = {
  flags: Uint8Array;
  /** POSIX `st_mode`. */
  modes: Uint32Array;
  sizes: Float64Array;
  /** Modification times: whole seconds, and nanoseconds within the second. */
  mtimeSeconds: Float64Array;
  mtimeNanos: Uint32Array;
};

export function createStatColumns(length: number): StatColumns {
  return {
    flags: new Uint8Array(length),
    modes: new Uint32Array(length),
    sizes: new Float64Array(length),
    mtimeSeconds: new Float64Array(length),
    mtimeNanos: new Uint32Array(length),
  };
}

/** The buffers of a set of columns, for transferring them to another thread. */
export function transferListOf(columns: StatColumns): ArrayBuffer[] {
  return [columns.flags, columns.modes, columns.sizes, columns.mtimeSeconds, columns.mtimeNanos].map((array) => array.buffer as ArrayBuffer);
}

const BILLION = 1_000_000_000n;
const STAT_OPTIONS = { bigint: true, throwIfNoEntry: false } as const;

/** Whole seconds and the nanoseconds within them (the latter never negative). */
export function splitNanoseconds(nanoseconds: bigint): [number, number] {
  let seconds = nanoseconds / BILLION;
  let fraction = nanoseconds % BILLION;
  if (fraction < 0n) {
    fraction += BILLION;
    seconds -= 1n;
  }
  return [Number(seconds), Number(fraction)];
}

/** Records one stat result in slot `slot`; `flags` are added to those the stat implies. */
export function recordStat(columns: StatColumns, slot: number, stat: fs.BigIntStats, flags: number): void {
  if (!(flags & IS_DANGLING)) {
    if (stat.isDirectory()) flags |= IS_DIR;
    else if (stat.isFile()) flags |= IS_FILE;
    else if (stat.isSymbolicLink()) flags |= IS_SYMLINK;
  }
  const [seconds, nanos] = splitNanoseconds(stat.mtimeNs);
  columns.flags[slot] = flags | IS_PRESENT;
  columns.modes[slot] = Number(stat.mode);
  columns.sizes[slot] = Number(stat.size);
  columns.mtimeSeconds[slot] = seconds;
  columns.mtimeNanos[slot] = nanos;
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

/**
 * `lstat`s the entries `names[i]` of `folder` for i in [from, to) into the same slots of
 * `columns`, without following links. Entries that vanished or cannot be read keep flags 0.
 */
export function statEntries(folder: string, names: readonly string[], columns: StatColumns, from: number, to: number): void {
  const prefix = folder.endsWith('/') ? folder : folder + '/';
  const dirFd = openForStatx(folder);
  const found: StatxResult = { mode: 0, size: 0, mtimeSeconds: 0, mtimeNanos: 0 };
  try {
    for (let index = from; index < to; index++) {
      if (dirFd !== undefined && statxAt(dirFd, names[index]!, found)) {
        const type = found.mode & S_IFMT;
        columns.flags[index] = IS_PRESENT | (type === S_IFDIR ? IS_DIR : type === S_IFREG ? IS_FILE : type === S_IFLNK ? IS_SYMLINK : 0);
        columns.modes[index] = found.mode;
        columns.sizes[index] = found.size;
        columns.mtimeSeconds[index] = found.mtimeSeconds;
        columns.mtimeNanos[index] = found.mtimeNanos;
        continue;
      }
      let stat: fs.BigIntStats | undefined;
      try {
        stat = fs.lstatSync(prefix + names[index]!, STAT_OPTIONS);
      } catch {
        continue;
      }
      if (stat) recordStat(columns, index, stat, 0);
    }
  } finally {
    if (dirFd !== undefined) fs.closeSync(dirFd);
  }
}
