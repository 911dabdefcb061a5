import type { Sorting } from '@burrow/protocol';
import { splitNanoseconds } from './entry-stats.js';

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Natural order: runs of digits compare by value (shorter number first once leading zeros are
 * eaten, then fewer zeros first), digits sort before other characters, everything else compares
 * by code unit. The same rules as the Go library filebrowser uses.
 */
export function naturalCompare(left: string, right: string): number {
  // Names in a folder tend to share a prefix (`IMG_0041.jpg`, `IMG_0042.jpg`): past it, one
  // character often decides, without walking the digit runs from their start.
  const shorter = Math.min(left.length, right.length);
  let same = 0;
  while (same < shorter && left.charCodeAt(same) === right.charCodeAt(same)) same++;
  if (same < shorter) {
    const a = left.charCodeAt(same);
    const b = right.charCodeAt(same);
    const digitA = isDigit(a);
    const digitB = isDigit(b);
    const inRun = same > 0 && isDigit(left.charCodeAt(same - 1));
    if (!digitA && !digitB && !inRun) return a < b ? -1 : 1;
    if (digitA !== digitB && !inRun) return digitA ? -1 : 1;
    if (digitA && digitB) {
      // The digit runs start at the same place in both: of equal length, they compare as text.
      let endA = same + 1;
      while (endA < left.length && isDigit(left.charCodeAt(endA))) endA++;
      let endB = same + 1;
      while (endB < right.length && isDigit(right.charCodeAt(endB))) endB++;
      if (endA === endB) return a < b ? -1 : 1;
    }
  }
  return naturalCompareFrom(left, right);
}

/** `naturalCompare`, walking both names from their start. */
function naturalCompareFrom(left: string, right: string): number {
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const a = left.charCodeAt(i);
    const b = right.charCodeAt(j);
    const digitA = isDigit(a);
    const digitB = isDigit(b);
    if (digitA !== digitB) return digitA ? -1 : 1;
    if (!digitA) {
      if (a !== b) return a < b ? -1 : 1;
      i++;
      j++;
      continue;
    }
    while (i < left.length && left.charCodeAt(i) === 48) i++;
    while (j < right.length && right.charCodeAt(j) === 48) j++;
    const startA = i;
    const startB = j;
    while (i < left.length && isDigit(left.charCodeAt(i))) i++;
    while (j < right.length && isDigit(right.charCodeAt(j))) j++;
    const lengthA = i - startA;
    const lengthB = j - startB;
    if (lengthA !== lengthB) return lengthA < lengthB ? -1 : 1;
    // Same number of significant digits: the first differing digit decides (no slices: this
    // runs for every pair of a 100,000-entry folder).
    for (let offset = 0; offset < lengthA; offset++) {
      const digitOfA = left.charCodeAt(startA + offset);
      const digitOfB = right.charCodeAt(startB + offset);
      if (digitOfA !== digitOfB) return digitOfA < digitOfB ? -1 : 1;
    }
    if (startA !== startB) return startA < startB ? -1 : 1;
  }
  const restA = left.length - i;
  const restB = right.length - j;
  return restA === restB ? 0 : restA < restB ? -1 : 1;
}

/**
 * A key whose plain code-unit order equals `naturalCompare` order, so large listings sort with
 * native string comparison. Each digit run becomes a marker below every name character (digits
 * sort first), its length without leading zeros (shorter numbers first), the digits, and its
 * count of leading zeros (fewer first).
 */
export function naturalKey(name: string): string {
  let key = '';
  let index = 0;
  while (index < name.length) {
    const code = name.charCodeAt(index);
    if (!isDigit(code)) {
      const start = index;
      while (index < name.length && !isDigit(name.charCodeAt(index))) index++;
      key += name.slice(start, index);
      continue;
    }
    const start = index;
    while (index < name.length && name.charCodeAt(index) === 48) index++;
    const significant = index;
    while (index < name.length && isDigit(name.charCodeAt(index))) index++;
    key += '\u0000' + String.fromCharCode(index - significant + 1) + name.slice(significant, index) + String.fromCharCode(significant - start + 1);
  }
  return key;
}

/** What the comparators need of a listed entry. */
export type SortableEntry = {
  name: string;
  isDir: boolean;
  size: number;
  mtimeNs: bigint;
};

/**
 * Whether a run of entries in read order is already in case-insensitive natural order, one way or
 * the other, among its folders and among its files; with the first and last of each (lower case)
 * so that runs read one after the other can be joined (see `joinNameOrders`). Entries left out of
 * a run keep it in order: a listing that drops some of a run's entries can rely on it.
 */
export type NameOrder = { folders: NameRun; files: NameRun };
type NameRun = { up: boolean; down: boolean; first?: string; last?: string };

/** The name order of a run of names; `isDir(index)` is undefined for entries left out of it. */
export function nameOrderOf(names: readonly string[], isDir: (index: number) => boolean | undefined): NameOrder {
  const folders: NameRun = { up: true, down: true };
  const files: NameRun = { up: true, down: true };
  for (let index = 0; index < names.length; index++) {
    const dir = isDir(index);
    if (dir === undefined) continue;
    const run = dir ? folders : files;
    const lower = names[index]!.toLowerCase();
    if (run.last !== undefined) {
      const order = naturalCompare(run.last, lower);
      if (order > 0) run.up = false;
      if (order < 0) run.down = false;
    } else run.first = lower;
    run.last = lower;
  }
  return { folders, files };
}

/** The name order of runs read one after the other. */
export function joinNameOrders(runs: readonly NameOrder[]): NameOrder {
  const join = (parts: NameRun[]): NameRun => {
    const joined: NameRun = { up: true, down: true };
    for (const part of parts) {
      joined.up &&= part.up;
      joined.down &&= part.down;
      if (part.first === undefined) continue;
      if (joined.last !== undefined) {
        const order = naturalCompare(joined.last, part.first);
        if (order > 0) joined.up = false;
        if (order < 0) joined.down = false;
      } else joined.first = part.first;
      joined.last = part.last;
    }
    return joined;
  };
  return { folders: join(runs.map((run) => run.folders)), files: join(runs.map((run) => run.files)) };
}

/** The same, column by column, for listings kept in packed arrays (entry index → value). */
export type SortableColumns = {
  count: number;
  names: readonly string[];
  isDir: (index: number) => boolean;
  sizes: ArrayLike<number>;
  /** Modification time as whole seconds and the nanoseconds within the second. */
  mtimeSeconds: ArrayLike<number>;
  mtimeNanos: ArrayLike<number>;
};

/** Go's size comparator lifts folders below every file by this offset. */
const FOLDER_SIZE_OFFSET = -(2 ** 31);

/**
 * The order of a listing's entries (indexes into the columns) following the user's preference,
 * with upstream's comparator table (its name order is inverted: `asc:false` means A→Z). Ties
 * keep read order.
 *
 * | by       | asc:false                      | asc:true                         |
 * | name     | folders first, A→Z             | folders first, Z→A               |
 * | size     | largest first                  | smallest first (folders first)   |
 * | modified | newest first                   | oldest first                     |
 * | other    | read order                     | as name with asc:true            |
 *
 * `known`: the name order of the entries in read order, when it is known already.
 */
export function sortOrder(columns: SortableColumns, sorting: Sorting, known?: NameOrder): number[] {
  const { count } = columns;
  const order = new Array<number>(count);
  for (let index = 0; index < count; index++) order[index] = index;
  const by = sorting.by;
  if (by === 'size') {
    const keys = new Float64Array(count);
    for (let index = 0; index < count; index++) keys[index] = columns.isDir(index) ? FOLDER_SIZE_OFFSET + columns.sizes[index]! : columns.sizes[index]!;
    const direction = sorting.asc ? 1 : -1;
    return order.sort((a, b) => direction * (keys[a]! - keys[b]!));
  }
  if (by === 'modified') {
    const { mtimeSeconds: seconds, mtimeNanos: nanos } = columns;
    const direction = sorting.asc ? 1 : -1;
    return order.sort((a, b) => direction * (seconds[a]! - seconds[b]! || nanos[a]! - nanos[b]!));
  }
  if (by !== 'name' && !sorting.asc) return order;
  const ascending = by === 'name' ? !sorting.asc : false;
  const foldersInOrder = known && (ascending ? known.folders.up : known.folders.down);
  const filesInOrder = known && (ascending ? known.files.up : known.files.down);
  if (foldersInOrder && filesInOrder) {
    // Folders, then files, each in read order.
    let position = 0;
    for (let index = 0; index < count; index++) if (columns.isDir(index)) order[position++] = index;
    for (let index = 0; index < count; index++) if (!columns.isDir(index)) order[position++] = index;
    return order;
  }
  const folders: number[] = [];
  const files: number[] = [];
  for (let index = 0; index < count; index++) (columns.isDir(index) ? folders : files).push(index);
  const sortedFolders = sortByName(folders, columns.names, ascending, foldersInOrder);
  const sortedFiles = sortByName(files, columns.names, ascending, filesInOrder);
  for (let position = 0; position < sortedFolders.length; position++) order[position] = sortedFolders[position]!;
  for (let position = 0; position < sortedFiles.length; position++) order[sortedFolders.length + position] = sortedFiles[position]!;
  return order;
}

/**
 * Stable case-insensitive natural sort of entry indexes. Folders are read in byte order, which
 * is often already the natural order: one pass checks that before anything is sorted. Otherwise
 * names are sorted on keys whose plain string order is the natural order.
 */
function sortByName(indexes: number[], names: readonly string[], ascending: boolean, knownSorted = false): number[] {
  if (knownSorted) return indexes;
  const lower = indexes.map((index) => names[index]!.toLowerCase());
  let sorted = true;
  for (let position = 1; position < lower.length && sorted; position++) {
    const order = naturalCompare(lower[position - 1]!, lower[position]!);
    sorted = ascending ? order <= 0 : order >= 0;
  }
  if (sorted) return indexes;
  const decorated = indexes.map((index, position) => ({ index, key: naturalKey(lower[position]!) }));
  decorated.sort((a, b) => {
    const order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return ascending ? order : -order;
  });
  return decorated.map((item) => item.index);
}

/**
 * The first `limit` entries of `sortOrder(columns, sorting)`, the same indexes in the same order,
 * found without ordering the others when the order depends on names only: a bounded heap keeps
 * the best `limit` seen so far, so a 100,000-entry folder costs one comparison for most of its
 * entries. Orders by size or time sort everything, as `sortOrder` does.
 */
export function firstInOrder(columns: SortableColumns, sorting: Sorting, limit: number): number[] {
  const { count } = columns;
  if (limit >= count || sorting.by === 'size' || sorting.by === 'modified') return sortOrder(columns, sorting).slice(0, limit);
  if (sorting.by !== 'name' && !sorting.asc) return Array.from({ length: Math.max(0, limit) }, (_, index) => index);
  const ascending = sorting.by === 'name' ? !sorting.asc : false;
  const folders: number[] = [];
  const files: number[] = [];
  for (let index = 0; index < count; index++) (columns.isDir(index) ? folders : files).push(index);
  const first = bestByName(folders, columns.names, ascending, limit);
  return first.length >= limit ? first : first.concat(bestByName(files, columns.names, ascending, limit - first.length));
}

/** The first `limit` of `sortByName(indexes, …)`, in order; `indexes` ascend (read order). */
function bestByName(indexes: number[], names: readonly string[], ascending: boolean, limit: number): number[] {
  if (limit <= 0) return [];
  if (indexes.length <= limit) return sortByName(indexes, names, ascending);
  const lower = new Map<number, string>();
  // Before: earlier in the listing. Equal names keep read order, as the stable sort does.
  const before = (a: number, b: number, lowerA: string, lowerB: string) => {
    const order = ascending ? naturalCompare(lowerA, lowerB) : naturalCompare(lowerB, lowerA);
    return order < 0 || (order === 0 && a < b);
  };
  // A heap whose top is the last of the best `limit` so far.
  const heap: number[] = [];
  const lowerOf = (index: number) => lower.get(index)!;
  const siftUp = (position: number) => {
    const item = heap[position]!;
    while (position > 0) {
      const parent = (position - 1) >> 1;
      if (!before(heap[parent]!, item, lowerOf(heap[parent]!), lowerOf(item))) break;
      heap[position] = heap[parent]!;
      position = parent;
    }
    heap[position] = item;
  };
  const siftDown = (position: number) => {
    const item = heap[position]!;
    for (;;) {
      let child = 2 * position + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && before(heap[child]!, heap[child + 1]!, lowerOf(heap[child]!), lowerOf(heap[child + 1]!))) child++;
      if (!before(item, heap[child]!, lowerOf(item), lowerOf(heap[child]!))) break;
      heap[position] = heap[child]!;
      position = child;
    }
    heap[position] = item;
  };
  for (const index of indexes) {
    const name = names[index]!.toLowerCase();
    if (heap.length < limit) {
      lower.set(index, name);
      heap.push(index);
      siftUp(heap.length - 1);
    } else if (before(index, heap[0]!, name, lowerOf(heap[0]!))) {
      lower.delete(heap[0]!);
      lower.set(index, name);
      heap[0] = index;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (before(a, b, lowerOf(a), lowerOf(b)) ? -1 : 1));
}

/** Sorts entry objects in place; see `sortOrder`. */
export function sortEntries<T extends SortableEntry>(entries: T[], sorting: Sorting): T[] {
  const times = entries.map((entry) => splitNanoseconds(entry.mtimeNs));
  const order = sortOrder(
    {
      count: entries.length,
      names: entries.map((entry) => entry.name),
      isDir: (index) => entries[index]!.isDir,
      sizes: entries.map((entry) => entry.size),
      mtimeSeconds: times.map((time) => time[0]),
      mtimeNanos: times.map((time) => time[1]),
    },
    sorting,
  );
  const copy = [...entries];
  for (let position = 0; position < order.length; position++) entries[position] = copy[order[position]!]!;
  return entries;
}
