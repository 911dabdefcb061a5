import type { DragEvent } from 'react';
import { isWithinPath, parentPath, trimmedPath } from '../../lib/paths';

/** The data type of items dragged inside the app (files dragged in from outside carry `Files`). */
const ItemDragType = 'application/x-burrow-items';

// Drag data cannot be read while dragging over a target, only on drop; the paths being dragged
// are kept here so targets can refuse themselves and their own contents as they are hovered.
let dragged: string[] | null = null;

export function startItemDrag(event: DragEvent, paths: string[], label: string): void {
  dragged = paths;
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData(ItemDragType, JSON.stringify(paths));
  event.dataTransfer.setData('text/plain', label);
}

export function endItemDrag(): void {
  dragged = null;
}

/** The items of an in-app drag, or null for anything else (files from the desktop, text). */
export function itemsOfDrag(event: DragEvent): string[] | null {
  if (!event.dataTransfer.types.includes(ItemDragType)) return null;
  if (dragged) return dragged;
  try {
    const parsed: unknown = JSON.parse(event.dataTransfer.getData(ItemDragType));
    return Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string') ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Whether items may be dropped into a folder: not into one of themselves or their contents, and
 * not into the folder they are already in.
 */
export function canDropInto(folder: string, paths: readonly string[]): boolean {
  const target = trimmedPath(folder);
  return paths.length > 0 && paths.every((path) => !isWithinPath(target, path) && trimmedPath(parentPath(path)) !== target);
}
