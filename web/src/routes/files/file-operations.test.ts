import type { Resource, ResourceItem } from '@burrow/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { resourceQueryKey } from './files-path';
import { forgetMovedItems } from './file-operations';

const item = (path: string, isDir = false): ResourceItem => ({
  path,
  name: path.slice(path.lastIndexOf('/') + 1),
  size: 1,
  extension: '',
  modified: '2024-01-01T00:00:00Z',
  mode: 0o644,
  isDir,
  isSymlink: false,
  type: isDir ? '' : 'text',
});

const folder = (path: string, items: ResourceItem[]): Resource =>
  ({ path, name: '', size: 0, extension: '', modified: '', mode: 0, isDir: true, isSymlink: false, type: '', items, numDirs: items.filter((entry) => entry.isDir).length, numFiles: items.filter((entry) => !entry.isDir).length }) as Resource;

afterEach(() => queryClient.clear());

describe('forgetMovedItems', () => {
  it('takes moved items out of every cached listing and recounts it', () => {
    queryClient.setQueryData(resourceQueryKey('/src/'), folder('/src/', [item('/src/keep.txt'), item('/src/gone.txt'), item('/src/album', true)]));
    queryClient.setQueryData(resourceQueryKey('/src'), folder('/src', [item('/src/gone.txt')]));
    const other = folder('/other/', [item('/other/gone.txt')]);
    queryClient.setQueryData(resourceQueryKey('/other/'), other);

    forgetMovedItems(['/src/gone.txt', '/src/album/']);

    const source = queryClient.getQueryData<Resource>(resourceQueryKey('/src/'))!;
    expect(source.items!.map((entry) => entry.path)).toEqual(['/src/keep.txt']);
    expect([source.numDirs, source.numFiles]).toEqual([0, 1]);
    expect(queryClient.getQueryData<Resource>(resourceQueryKey('/src'))!.items).toEqual([]);
    // A listing that never held them stays the same object.
    expect(queryClient.getQueryData(resourceQueryKey('/other/'))).toBe(other);
  });

  it('leaves files and empty moves alone', () => {
    const file = { ...item('/src/gone.txt'), items: undefined } as unknown as Resource;
    queryClient.setQueryData(resourceQueryKey('/src/gone.txt'), file);
    forgetMovedItems([]);
    forgetMovedItems(['/src/gone.txt']);
    expect(queryClient.getQueryData(resourceQueryKey('/src/gone.txt'))).toBe(file);
  });
});
