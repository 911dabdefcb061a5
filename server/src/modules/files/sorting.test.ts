import { describe, expect, it } from 'vitest';
import { firstInOrder, naturalCompare, naturalKey, sortEntries, sortOrder, type SortableEntry } from './sorting.js';

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
    const names = Array.from({ length: 400 }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    for (const left of names.slice(0, 120)) {
      for (const right of names) {
        const byKey = naturalKey(left) < naturalKey(right) ? -1 : naturalKey(left) > naturalKey(right) ? 1 : 0;
        if (byKey !== naturalCompare(left, right)) expect([left, right, byKey]).toEqual([left, right, naturalCompare(left, right)]);
      }
    }
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
