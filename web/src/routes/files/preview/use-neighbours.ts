import type { Resource, ResourceItem } from '@burrow/protocol';
import { useMemo } from 'react';
import { parentPath } from '../../../lib/paths';
import { useResource } from '../use-resource';

/** Items the preview pages through: files, but not the text files the editor opens. */
function isPreviewable(item: Pick<ResourceItem, 'isDir' | 'type'>): boolean {
  return !item.isDir && item.type !== 'text' && item.type !== 'textImmutable';
}

export type Neighbours = {
  previous?: ResourceItem;
  next?: ResourceItem;
  /** 1-based place of the file among the folder's previewable items; 0 while unknown. */
  position: number;
  count: number;
  /** The folder's previewable items in listing order. */
  items: ResourceItem[];
  /** Every name in the folder (for rename clash warnings). */
  names: string[];
};

/** Pure part of `useNeighbours`, for tests. */
export function neighboursIn(folderItems: readonly ResourceItem[] | undefined, path: string): Neighbours {
  const items = (folderItems ?? []).filter(isPreviewable);
  const names = (folderItems ?? []).map((item) => item.name);
  const index = items.findIndex((item) => item.path === path);
  if (index === -1) return { position: 0, count: items.length, items, names };
  return { previous: items[index - 1], next: items[index + 1], position: index + 1, count: items.length, items, names };
}

/** The previous and next previewable files of the file's folder (its listing is usually cached). */
export function useNeighbours(file: Resource): Neighbours {
  const folder = useResource(parentPath(file.path));
  const folderItems = folder.data?.isDir ? folder.data.items : undefined;
  return useMemo(() => neighboursIn(folderItems, file.path), [folderItems, file.path]);
}
