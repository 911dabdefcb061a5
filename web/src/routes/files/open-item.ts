import type { ResourceItem } from '@burrow/protocol';
import { filesRoute } from '../../lib/paths';
import { navigateTo } from '../../lib/navigation';

/**
 * The route an item opens at. Folders list their contents; every other item opens under the same
 * `/files/<path>` route, where the screen picks the view by the file's type (text in the editor,
 * anything else in the preview).
 */
export function itemRoute(item: Pick<ResourceItem, 'path' | 'isDir'>): string {
  return filesRoute(item.isDir && !item.path.endsWith('/') ? item.path + '/' : item.path);
}

export function openItem(item: Pick<ResourceItem, 'path' | 'isDir'>): void {
  navigateTo(itemRoute(item));
}
