import { describe, expect, it } from 'vitest';
import { firstInOrder, joinNameOrders, nameOrderOf, naturalCompare, naturalKey, sortEntries, sortOrder, type SortableEntry } from './sorting.js';

const entry = (name: string, isDir: boolean, size: number, mtime: number): SortableEntry => ({ name, isDir, size, mtimeNs: BigInt(mtime) * 1_000_000n });

const entries = () => [
  entry('b10.txt', false, 300, 3),
  entry('B2.txt', false, 100, 5),
  entry('zeta', true, 4096, 1),
  entry('a1.txt', false, 200, 4),
  entry('Alpha', true, 8192, 2),
];
const names = (list: SortableEntry[]) => list.map((item) => item.name);

describe('naturalCompare', () => {
  it('orders digit runs by value and digits before letters', () => {
    const sorted = ['file10', 'file2', 'file1', 'file02', 'file', 'a', '10', '9', 'x-1', 'file001'].sort(naturalCompare);
    expect(sorted).toEqual(['9', '10', 'a', 'file', 'file1', 'file001', 'file2', 'file02', 'file10', 'x-1']);
    expect(naturalCompare('abc', 'abc')).toBe(0);
  });

  it('agrees with naturalKey order on random names', () => {
    const alphabet = ['0', '0', '1', '2', '9', 'a', 'b', 'B', '-', '.', ' ', 'é', '~'];
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    // Shared prefixes, digits among them, as in real folders.
    const prefixes = ['', '', 'img_00', 'a1b', 'x 0', 'file-9'];
    const names = Array.from({ length: 400 }, () => prefixes[Math.floor(random() * prefixes.length)] + Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    for (const left of names.slice(0, 120)) {
      for (const right of names) {
        const byKey = naturalKey(left) < naturalKey(right) ? -1 : naturalKey(left) > naturalKey(right) ? 1 : 0;
        if (byKey !== naturalCompare(left, right)) expect([left, right, byKey]).toEqual([left, right, naturalCompare(left, right)]);
      }
    }
  });
});

describe('nameOrderOf and joinNameOrders', () => {
  const inOrder = (names: string[], sign: number) => names.every((name, index) => index === 0 || sign * naturalCompare(names[index - 1]!.toLowerCase(), name.toLowerCase()) <= 0);

  it('tell whether runs read one after the other are in name order, folders and files apart', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      const count = Math.floor(random() * 12);
      // Mostly ordered names, now and then one out of place, some left out of the runs.
      const names = Array.from({ length: count }, (_, index) => `f${random() < 0.1 ? Math.floor(random() * 20) : index}${random() < 0.3 ? 'B' : 'a'}`);
      const isDir = names.map(() => (random() < 0.2 ? true : random() < 0.1 ? undefined : false));
      const cut = Math.floor(random() * (count + 1));
      const runs = [nameOrderOf(names.slice(0, cut), (index) => isDir[index]), nameOrderOf(names.slice(cut), (index) => isDir[cut + index])];
      const joined = joinNameOrders(runs);
      const files = names.filter((_, index) => isDir[index] === false);
      const folders = names.filter((_, index) => isDir[index] === true);
      expect([joined.files.up, joined.files.down, joined.folders.up, joined.folders.down]).toEqual([inOrder(files, 1), inOrder(files, -1), inOrder(folders, 1), inOrder(folders, -1)]);
    }
  });

  it('let sortOrder skip checking names already known to be in order, and only then', () => {
    const names = ['b', 'a', 'c'];
    const columns = { count: 3, names, isDir: () => false, sizes: [0, 0, 0], mtimeSeconds: [0, 0, 0], mtimeNanos: [0, 0, 0] };
    expect(sortOrder(columns, { by: 'name', asc: false })).toEqual([1, 0, 2]);
    const claimed = { folders: { up: true, down: true }, files: { up: true, down: false } };
    expect(sortOrder(columns, { by: 'name', asc: false }, claimed)).toEqual([0, 1, 2]);
    expect(sortOrder(columns, { by: 'name', asc: true }, claimed)).toEqual([2, 0, 1]);
  });

  it('put folders, then files, in read order when both are known to be in order', () => {
    const names = ['a', 'B', 'c', 'D', 'e'];
    const isDir = [false, true, false, true, false];
    const columns = { count: 5, names, isDir: (index: number) => isDir[index]!, sizes: [0, 0, 0, 0, 0], mtimeSeconds: [0, 0, 0, 0, 0], mtimeNanos: [0, 0, 0, 0, 0] };
    const known = nameOrderOf(names, (index) => isDir[index]);
    expect(sortOrder(columns, { by: 'name', asc: false }, known)).toEqual([1, 3, 0, 2, 4]);
    expect(sortOrder(columns, { by: 'name', asc: false }, known)).toEqual(sortOrder(columns, { by: 'name', asc: false }));
    // Known up only: Z→A still sorts.
    expect(sortOrder(columns, { by: 'name', asc: true }, known)).toEqual([3, 1, 4, 2, 0]);
  });
});

describe('sortEntries (upstream comparator table)', () => {
  it('name, asc:false: folders first, then case-insensitive natural A→Z', () => {
    expect(names(sortEntries(entries(), { by: 'name', asc: false }))).toEqual(['Alpha', 'zeta', 'a1.txt', 'B2.txt', 'b10.txt']);
  });
  it('name, asc:true: folders first, then Z→A', () => {
    expect(names(sortEntries(entries(), { by: 'name', asc: true }))).toEqual(['zeta', 'Alpha', 'b10.txt', 'B2.txt', 'a1.txt']);
  });
  it('size, asc:false: largest first with folders last', () => {
    expect(names(sortEntries(entries(), { by: 'size', asc: false }))).toEqual(['b10.txt', 'a1.txt', 'B2.txt', 'Alpha', 'zeta']);
  });
  it('size, asc:true: folders first, then smallest first', () => {
    expect(names(sortEntries(entries(), { by: 'size', asc: true }))).toEqual(['zeta', 'Alpha', 'B2.txt', 'a1.txt', 'b10.txt']);
  });
  it('modified, asc:false: newest first; asc:true: oldest first', () => {
    expect(names(sortEntries(entries(), { by: 'modified', asc: false }))).toEqual(['B2.txt', 'a1.txt', 'b10.txt', 'Alpha', 'zeta']);
    expect(names(sortEntries(entries(), { by: 'modified', asc: true }))).toEqual(['zeta', 'Alpha', 'b10.txt', 'a1.txt', 'B2.txt']);
  });
  it('empty or unknown: read order with asc:false, name Z→A with asc:true', () => {
    expect(names(sortEntries(entries(), { by: '', asc: false }))).toEqual(names(entries()));
    expect(names(sortEntries(entries(), { by: 'colour', asc: false }))).toEqual(names(entries()));
    expect(names(sortEntries(entries(), { by: '', asc: true }))).toEqual(['zeta', 'Alpha', 'b10.txt', 'B2.txt', 'a1.txt']);
  });
});

describe('firstInOrder', () => {
  it('gives the first entries of sortOrder, in its order, for every sorting and length', () => {
    const alphabet = ['0', '0', '1', '2', '9', 'a', 'A', 'b', 'B', '-', '.', ' ', 'é', 'É', '~'];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const count = 700;
    // Short names from a small alphabet: many equal and case-equal names, whose read order decides.
    const names = Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    const dirs = names.map(() => random() < 0.1);
    const numbers = names.map(() => Math.floor(random() * 50));
    const columns = { count, names, isDir: (index: number) => dirs[index]!, sizes: numbers, mtimeSeconds: numbers, mtimeNanos: numbers };
    for (const by of ['name', 'size', 'modified', '', 'colour']) {
      for (const asc of [false, true]) {
        const whole = sortOrder(columns, { by, asc });
        for (const limit of [0, 1, 2, 5, 40, 69, 70, 71, 300, count - 1, count, count + 5]) {
          expect({ by, asc, limit, first: firstInOrder(columns, { by, asc }, limit) }).toEqual({ by, asc, limit, first: whole.slice(0, limit) });
        }
      }
    }
  });
});
