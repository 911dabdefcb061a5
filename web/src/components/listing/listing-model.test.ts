import type { ResourceItem } from '@burrow/protocol';
import { describe, expect, it } from 'vitest';
import { buildRows, groupItems, isVisuallyAscending, mosaicColumns, nextSorting, nextViewMode, normaliseSortField, normaliseViewMode, rowOfItem } from './listing-model';

const item = (name: string, isDir: boolean) => ({ name, path: '/' + name, isDir }) as ResourceItem;

describe('listing model', () => {
  it('cycles the views and reads unknown values as the list', () => {
    expect(nextViewMode('list')).toBe('mosaic');
    expect(nextViewMode('mosaic')).toBe('mosaic gallery');
    expect(nextViewMode('mosaic gallery')).toBe('list');
    expect(normaliseViewMode('tiles')).toBe('list');
    expect(normaliseSortField('')).toBe('name');
  });

  it('knows which way each sort reads on screen', () => {
    // The protocol inverts the name comparator: asc:false is A→Z.
    expect(isVisuallyAscending('name', false)).toBe(true);
    expect(isVisuallyAscending('size', false)).toBe(false);
    expect(isVisuallyAscending('modified', true)).toBe(true);
  });

  it('flips the active column and starts another at its natural order', () => {
    expect(nextSorting({ by: 'name', asc: false }, 'name')).toEqual({ by: 'name', asc: true });
    expect(nextSorting({ by: 'name', asc: true }, 'size')).toEqual({ by: 'size', asc: false });
  });

  it('keeps the server order inside each group, folders first', () => {
    const { ordered, folderCount } = groupItems([item('b.txt', false), item('z', true), item('a.txt', false), item('c', true)]);
    expect(ordered.map((entry) => entry.name)).toEqual(['z', 'c', 'b.txt', 'a.txt']);
    expect(folderCount).toBe(2);
  });

  it('builds headed groups of rows', () => {
    expect(buildRows(2, 3, 2)).toEqual([
      { kind: 'group', group: 'folders', count: 2 },
      { kind: 'items', start: 0, end: 2 },
      { kind: 'group', group: 'files', count: 3 },
      { kind: 'items', start: 2, end: 4 },
      { kind: 'items', start: 4, end: 5 },
    ]);
    expect(buildRows(0, 1, 1)).toEqual([
      { kind: 'group', group: 'files', count: 1 },
      { kind: 'items', start: 0, end: 1 },
    ]);
  });

  it('fits tiles around the 280 px target', () => {
    expect(mosaicColumns(900, 'list')).toBe(1);
    expect(mosaicColumns(900, 'mosaic')).toBe(3);
    expect(mosaicColumns(1180, 'mosaic')).toBe(4);
    expect(mosaicColumns(343, 'mosaic')).toBe(1);
    expect(mosaicColumns(343, 'mosaic gallery')).toBe(2);
  });

  it('finds the row of an item, past the group headings', () => {
    const rows = buildRows(3, 4, 2);
    for (let index = 0; index < 7; index += 1) {
      const row = rows[rowOfItem(index, 3, 2)]!;
      expect(row.kind === 'items' && index >= row.start && index < row.end).toBe(true);
    }
    expect(rowOfItem(0, 0, 3)).toBe(1);
  });
});
