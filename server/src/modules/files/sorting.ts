import type { Sorting } from '@burrow/protocol';

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Natural order: runs of digits compare by value (shorter number first once leading zeros are
 * eaten, then fewer zeros first), digits sort before other characters, everything else compares
 * by code unit. The same rules as the Go library filebrowser uses.
 */
export function naturalCompare(left: string, right: string): number {
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
    const numberA = left.slice(startA, i);
    const numberB = right.slice(startB, j);
    if (numberA !== numberB) return numberA < numberB ? -1 : 1;
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

/** Go's size comparator lifts folders below every file by this offset. */
const FOLDER_SIZE_OFFSET = -(2 ** 31);

/**
 * Sorts in place following the user's preference, with upstream's comparator table (its name
 * order is inverted: `asc:false` means A→Z):
 *
 * | by       | asc:false                      | asc:true                         |
 * | name     | folders first, A→Z             | folders first, Z→A               |
 * | size     | largest first                  | smallest first (folders first)   |
 * | modified | newest first                   | oldest first                     |
 * | other    | read order                     | as name with asc:true            |
 */
export function sortEntries<T extends SortableEntry>(entries: T[], sorting: Sorting): T[] {
  const by = sorting.by;
  if (by === 'size') {
    const key = (entry: T) => (entry.isDir ? FOLDER_SIZE_OFFSET + entry.size : entry.size);
    const direction = sorting.asc ? 1 : -1;
    return entries.sort((a, b) => direction * (key(a) - key(b)));
  }
  if (by === 'modified') {
    const direction = sorting.asc ? 1 : -1;
    return entries.sort((a, b) => direction * (a.mtimeNs < b.mtimeNs ? -1 : a.mtimeNs > b.mtimeNs ? 1 : 0));
  }
  if (by !== 'name' && !sorting.asc) return entries;
  const ascending = by === 'name' ? !sorting.asc : false;
  const decorated = entries.map((entry) => ({ entry, key: naturalKey(entry.name.toLowerCase()) }));
  decorated.sort((a, b) => {
    if (a.entry.isDir !== b.entry.isDir) return a.entry.isDir ? -1 : 1;
    const order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return ascending ? order : -order;
  });
  for (let index = 0; index < decorated.length; index++) entries[index] = decorated[index]!.entry;
  return entries;
}
