import type { ResourceItem } from '@burrow/protocol';

export type ViewMode = 'list' | 'mosaic' | 'mosaic gallery';
const ViewModes: readonly ViewMode[] = ['list', 'mosaic', 'mosaic gallery'];
export type SortField = 'name' | 'size' | 'modified';
export const SortFields: readonly SortField[] = ['name', 'size', 'modified'];

/** An unknown stored value (an old record, a typo) shows as the list. */
export function normaliseViewMode(value: string | undefined): ViewMode {
  return (ViewModes as readonly string[]).includes(value ?? '') ? (value as ViewMode) : 'list';
}

/** The next view in the switch-view cycle: list → mosaic → mosaic gallery → list. */
export function nextViewMode(mode: ViewMode): ViewMode {
  return ViewModes[(ViewModes.indexOf(mode) + 1) % ViewModes.length]!;
}

/** Sorting as shown: an empty or unknown field sorts by name. */
export function normaliseSortField(value: string | undefined): SortField {
  return (SortFields as readonly string[]).includes(value ?? '') ? (value as SortField) : 'name';
}

/**
 * Whether the list the server sent reads ascending on screen. The protocol's name order is
 * inverted (`asc:false` is A→Z), while size and modified put the largest or newest first when
 * `asc` is false.
 */
export function isVisuallyAscending(by: SortField, asc: boolean): boolean {
  return by === 'name' ? !asc : asc;
}

/** The sorting a click on a column asks for: the active column flips, another starts at its natural order. */
export function nextSorting(current: { by: SortField; asc: boolean }, clicked: SortField): { by: SortField; asc: boolean } {
  return clicked === current.by ? { by: clicked, asc: !current.asc } : { by: clicked, asc: false };
}

/** Mosaic tiles aim at this width (spec section 9). */
const TileTargetWidth = 280;
const TileGap = 12;
const ListRowHeight = 48;
export const GroupRowHeight = 44;
const MosaicTileHeight = 68;
const GalleryCaptionHeight = 54;

/** Columns of a mosaic at a given content width; galleries keep two columns on phones. */
export function mosaicColumns(width: number, mode: ViewMode): number {
  if (mode === 'list' || width <= 0) return 1;
  const columns = Math.max(1, Math.round((width + TileGap) / (TileTargetWidth + TileGap)));
  return mode === 'mosaic gallery' && width >= 300 ? Math.max(2, columns) : columns;
}

export function tileWidth(width: number, columns: number): number {
  return Math.max(0, (width - TileGap * (columns - 1)) / columns);
}

/** A row of the windowed listing: a group heading, or the items `start` to `end - 1` of the display order. */
export type ListingRow = { kind: 'group'; group: 'folders' | 'files'; count: number } | { kind: 'items'; start: number; end: number };

/**
 * The rows for folders then files, each group under its heading, `columns` items a row. The
 * display order is the server's order with folders moved ahead of files.
 */
export function buildRows(folderCount: number, fileCount: number, columns: number): ListingRow[] {
  const rows: ListingRow[] = [];
  const addGroup = (group: 'folders' | 'files', start: number, count: number) => {
    if (count === 0) return;
    rows.push({ kind: 'group', group, count });
    for (let index = start; index < start + count; index += columns) rows.push({ kind: 'items', start: index, end: Math.min(start + count, index + columns) });
  };
  addGroup('folders', 0, folderCount);
  addGroup('files', folderCount, fileCount);
  return rows;
}

/** Height of an item row in pixels (fixed per view, so the windowing needs no measuring). */
export function itemRowHeight(mode: ViewMode, tile: number): number {
  if (mode === 'list') return ListRowHeight;
  if (mode === 'mosaic') return MosaicTileHeight + TileGap;
  return Math.round(tile * 0.75) + GalleryCaptionHeight + TileGap;
}

/** Folders first then files, each group in the order the server sent. */
export function groupItems(items: readonly ResourceItem[]): { ordered: ResourceItem[]; folderCount: number } {
  const folders: ResourceItem[] = [];
  const files: ResourceItem[] = [];
  for (const item of items) (item.isDir ? folders : files).push(item);
  return { ordered: folders.concat(files), folderCount: folders.length };
}

/** The row (of `buildRows`) holding the item at `index` of the display order. */
export function rowOfItem(index: number, folderCount: number, columns: number): number {
  if (index < folderCount) return 1 + Math.floor(index / columns);
  const folderRows = folderCount > 0 ? 1 + Math.ceil(folderCount / columns) : 0;
  return folderRows + 1 + Math.floor((index - folderCount) / columns);
}
