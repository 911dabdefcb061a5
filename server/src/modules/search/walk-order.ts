/**
 * Walk order: the order a depth-first walk visits entries when every folder's names are sorted.
 * The index stores real paths relative to the server root; mapping `/` to the smallest character
 * (U+0001) turns walk order into plain string order, so the database can keep it in an index and
 * answer "everything under this folder, in walk order" with one range. Names may themselves hold
 * U+0001 or U+0002, so those are escaped first (U+0002 doubles, U+0001 becomes U+0002 U+0001);
 * the mapping stays exact and keeps the order. The repository's SQL expression does the same.
 */
export function walkKey(relativePath: string): string {
  // eslint-disable-next-line no-control-regex -- the key escapes these control characters
  return relativePath.replace(/\x02/g, '\x02\x02').replace(/\x01/g, '\x02\x01').replace(/\//g, '\x01');
}

/** Lower bound (exclusive) of the keys of everything below `relativePath` ('' is the root). */
export function subtreeLow(relativePath: string): string {
  return relativePath === '' ? '' : walkKey(relativePath) + '\x01';
}

/** Upper bound (exclusive) of the keys below `relativePath`, or undefined for the root. */
export function subtreeHigh(relativePath: string): string | undefined {
  return relativePath === '' ? undefined : walkKey(relativePath) + '\x02';
}

/**
 * Compares in Unicode code point order, which is the byte order of UTF-8 and so the order SQLite
 * sorts text in. Plain UTF-16 comparison differs only between surrogates and U+E000–U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    let left = a.charCodeAt(index);
    let right = b.charCodeAt(index);
    if (left === right) continue;
    if (left >= 0xd800 && right >= 0xd800) {
      left = left >= 0xe000 ? left - 0x800 : left + 0x2000;
      right = right >= 0xe000 ? right - 0x800 : right + 0x2000;
    }
    return left - right;
  }
  return a.length - b.length;
}

/** The parent of a relative path ('' for top-level entries). */
export function parentPath(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

/** Joins a relative folder and a name. */
export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

/** True when `candidate` is `ancestor` or lies below it ('' contains everything). */
export function isSameOrBelow(ancestor: string, candidate: string): boolean {
  return ancestor === '' || candidate === ancestor || candidate.startsWith(ancestor + '/');
}
