import type { ResourceItem } from '@burrow/protocol';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocaleTag } from '../../i18n/i18n';
import { endItemDrag, startItemDrag } from './drag-items';
import { groupDigits } from './group-digits';
import { ListRow, MosaicTile, type ItemDropHandler } from './listing-item';
import { ListColumns, SortBar } from './listing-columns';
import {
  buildRows,
  GroupRowHeight,
  itemRowHeight,
  mosaicColumns,
  rowOfItem,
  tileWidth,
  type SortField,
  type ViewMode,
} from './listing-model';
import { resolveArrow, resolveClick, resolveLongPress, type SelectionSnapshot } from './selection-logic';
import { useCancelOnUnmount, useItemGestures, type ClickDetails } from './use-item-gestures';
import { useDocumentTop, useWindowRows } from './use-window-rows';
import './listing.css';

export type ListingProps = {
  /** Items in display order: folders first, then files. */
  items: readonly ResourceItem[];
  folderCount: number;
  viewMode: ViewMode;
  sorting: { by: SortField; asc: boolean };
  selected: ReadonlySet<string>;
  anchor: string | null;
  isMultiple: boolean;
  singleClick: boolean;
  /** Items may be dragged onto folders (the rename permission). */
  canDrag: boolean;
  /** Items shown faded (cut to the clipboard). */
  dimmed?: ReadonlySet<string>;
  /** An item to scroll to and make the keyboard position. */
  reveal: { path: string; id: number } | null;
  /**
   * False while something (a dialog) covers the listing. A revealed item takes the focus once
   * the listing is free again, if the focus was lost meanwhile (its element was deleted).
   */
  canTakeFocus: boolean;
  hrefOf: (item: ResourceItem) => string;
  thumbnailOf: (item: ResourceItem) => string | undefined;
  formatSize: (bytes: number) => string;
  formatDate: (modified: string) => { text: string; title: string };
  onSort: (by: SortField) => void;
  onSelectionChange: (selection: SelectionSnapshot) => void;
  /** A long press selected something: the screen switches to multiple selection. */
  onLongPress: (selection: SelectionSnapshot) => void;
  onOpen: (item: ResourceItem) => void;
  onDropItems: ItemDropHandler;
  /** How many folders and files the folder holds, when `items` are only its first ones. */
  groupTotals?: { folders: number; files: number };
};

const Overscan = 6;

/** Keeps the latest value in a ref, for stable callbacks that read current props. */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}


function useWidth(ref: React.RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(() => ref.current?.clientWidth ?? 0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The folder listing in one of three views, windowed: however many items the folder holds, only
 * the rows in and near the viewport exist in the DOM. The page itself scrolls. Items form a
 * grid (rows of cells in the list, tiles in the mosaics) with multiple selection and a roving
 * keyboard position.
 */
export function Listing(props: ListingProps) {
  const { t } = useTranslation();
  const { items, folderCount, viewMode, selected } = props;
  const latest = useLatest(props);
  const gridRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const width = useWidth(gridRef);
  const scrollMargin = useDocumentTop(bodyRef);
  const [focusIndex, setFocusIndex] = useState(-1);
  const pendingFocus = useRef<number | null>(null);
  const focusIfLost = useRef<number | null>(null);
  const previousClick = useRef<{ path: string; time: number } | null>(null);

  const order = useMemo(() => items.map((item) => item.path), [items]);
  const positions = useMemo(() => new Map(order.map((path, index) => [path, index])), [order]);
  const columns = mosaicColumns(width, viewMode);
  const tile = tileWidth(width, columns);
  const rowHeight = itemRowHeight(viewMode, tile);
  const rows = useMemo(() => buildRows(folderCount, items.length - folderCount, columns), [folderCount, items.length, columns]);
  const isList = viewMode === 'list';
  const isGallery = viewMode === 'mosaic gallery';
  const headerRows = isList ? 1 : 0;
  // The gallery shows pictures; its folders stay compact tiles, as in the mosaic.
  const folderRowHeight = isGallery ? itemRowHeight('mosaic', tile) : rowHeight;
  const heightOf = (row: (typeof rows)[number] | undefined) =>
    row === undefined || row.kind === 'group' ? GroupRowHeight : row.start < folderCount ? folderRowHeight : rowHeight;

  const virtualizer = useWindowRows({
    count: rows.length,
    estimateSize: (index) => heightOf(rows[index]),
    overscan: Overscan,
    scrollMargin,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight, folderRowHeight, rows]);

  const handleClick = useCallback(
    (details: ClickDetails) => {
      const current = latest.current;
      const index = positions.get(details.path);
      if (index === undefined) return;
      setFocusIndex(index);
      const outcome = resolveClick(
        { selected: current.selected, anchor: current.anchor },
        {
          ...details,
          isMultipleMode: current.isMultiple,
          singleClick: current.singleClick,
          previous: previousClick.current,
          now: details.time,
        },
        order,
        positions,
      );
      if (outcome.kind === 'open') {
        previousClick.current = null;
        current.onOpen(current.items[index]!);
        return;
      }
      const isPlain = !details.isRange && !details.isToggle && !current.isMultiple;
      previousClick.current = isPlain ? { path: details.path, time: details.time } : null;
      current.onSelectionChange(outcome);
    },
    // `latest` is a ref; order and positions change with the items.
    [latest, order, positions],
  );
  const handleLongPress = useCallback(
    (path: string) => {
      previousClick.current = null;
      const current = latest.current;
      current.onLongPress(resolveLongPress({ selected: current.selected, anchor: current.anchor }, path));
    },
    [latest],
  );
  const gestures = useItemGestures(handleClick, handleLongPress);
  useCancelOnUnmount(gestures.cancel);

  const handleDragStart = useCallback(
    (item: ResourceItem, event: DragEvent) => {
      // A drag is not a long press, even when the pointer rested before moving.
      gestures.cancel();
      const current = latest.current;
      let paths: string[];
      if (current.selected.has(item.path)) {
        paths = current.items.filter((entry) => current.selected.has(entry.path)).map((entry) => entry.path);
      } else {
        paths = [item.path];
        current.onSelectionChange({ selected: new Set(paths), anchor: item.path });
      }
      startItemDrag(event, paths, paths.length === 1 ? item.name : groupDigits(t('listing.itemCount', { count: paths.length }), paths.length, currentLocaleTag()));
    },
    [gestures, latest, t],
  );
  const handleDrop = useCallback<ItemDropHandler>((folder, paths) => latest.current.onDropItems(folder, paths), [latest]);

  // Bring the revealed item into view and make it the keyboard position.
  const reveal = props.reveal;
  useEffect(() => {
    if (!reveal) return;
    const index = positions.get(reveal.path);
    if (index === undefined) return;
    setFocusIndex(index);
    focusIfLost.current = index;
    virtualizer.scrollToIndex(rowOfItem(index, folderCount, columns));
    // Only when the reveal request changes or its item arrives, not on every new width.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [reveal?.id, positions]);

  const virtualRows = virtualizer.getVirtualItems();
  const renderedItems: number[] = [];
  for (const virtualRow of virtualRows) {
    const row = rows[virtualRow.index];
    if (row?.kind === 'items') for (let index = row.start; index < row.end; index += 1) renderedItems.push(index);
  }
  const tabbable = renderedItems.includes(focusIndex) ? focusIndex : (renderedItems[0] ?? -1);

  // After a delete, move or rename the element that had the focus may be gone, and with it the
  // keyboard's place in the listing: the revealed item takes over, unless the focus went back
  // somewhere meaningful (the button that opened the dialog).
  useEffect(() => {
    const index = focusIfLost.current;
    if (index === null || !props.canTakeFocus) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) {
      focusIfLost.current = null;
      return;
    }
    const link = gridRef.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-item-link]`);
    if (link) {
      focusIfLost.current = null;
      link.focus({ preventScroll: true });
    }
  });

  // Focus the item arrow keys moved to once its row exists.
  useEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    const link = gridRef.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-item-link]`);
    if (link) {
      pendingFocus.current = null;
      link.focus({ preventScroll: true });
    }
  });

  const handleKeyDown = (event: KeyboardEvent) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!target || event.altKey) return;
    const current = Number(target.dataset.index);
    if (event.key === ' ') {
      event.preventDefault();
      const path = order[current]!;
      const next = new Set(selected);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      props.onSelectionChange({ selected: next, anchor: path });
      return;
    }
    const steps: Record<string, number> = {
      ArrowDown: columns,
      ArrowUp: -columns,
      ArrowRight: isList ? 0 : document.documentElement.dir === 'rtl' ? -1 : 1,
      ArrowLeft: isList ? 0 : document.documentElement.dir === 'rtl' ? 1 : -1,
      Home: -order.length,
      End: order.length,
      PageDown: columns * 10,
      PageUp: -columns * 10,
    };
    const step = steps[event.key];
    if (!step || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const moved = resolveArrow({ selected, anchor: props.anchor }, current, step, event.shiftKey, order, positions);
    if (!moved) return;
    setFocusIndex(moved.index);
    pendingFocus.current = moved.index;
    virtualizer.scrollToIndex(rowOfItem(moved.index, folderCount, columns));
    props.onSelectionChange({ selected: moved.selected, anchor: moved.anchor });
  };

  const itemProps = (item: ResourceItem, index: number) => {
    const date = props.formatDate(item.modified);
    return {
      item,
      index,
      isSelected: selected.has(item.path),
      isDimmed: props.dimmed?.has(item.path) ?? false,
      isTabbable: index === tabbable,
      href: props.hrefOf(item),
      sizeText: item.isDir ? '—' : props.formatSize(item.size),
      dateText: date.text,
      dateTitle: date.title,
      gesturesFor: gestures.handlersFor,
      canDrag: props.canDrag,
      onDragStart: handleDragStart,
      onDragEnd: endItemDrag,
      onDropItems: handleDrop,
    };
  };

  return (
    <div className={`listing listing--${viewMode.replace(' ', '-')}`}>
      {!isList && <SortBar by={props.sorting.by} asc={props.sorting.asc} onSort={props.onSort} />}
      <div
        ref={gridRef}
        role="grid"
        className="listing__grid"
        aria-label={t('files.listLabel')}
        aria-multiselectable="true"
        aria-rowcount={rows.length + headerRows}
        aria-colcount={isList ? 3 : columns}
        onKeyDown={handleKeyDown}
      >
        {isList && <ListColumns by={props.sorting.by} asc={props.sorting.asc} onSort={props.onSort} rowIndex={1} />}
        <div ref={bodyRef} role="rowgroup" className="listing__body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualRows.map((virtualRow) => {
            const row = rows[virtualRow.index]!;
            const offset = virtualRow.start - scrollMargin;
            const style = { height: virtualRow.size, transform: `translateY(${offset}px)` };
            const rowIndex = virtualRow.index + 1 + headerRows;
            if (row.kind === 'group') {
              return (
                <div key={`group-${row.group}`} role="row" aria-rowindex={rowIndex} className="listing__group" style={style}>
                  <div role="gridcell" aria-colspan={isList ? 3 : columns} className="listing__group-label">
                    {row.group === 'folders' ? t('listing.folders') : t('listing.files')}
                    <span className="listing__group-count">{(props.groupTotals?.[row.group] ?? row.count).toLocaleString(currentLocaleTag())}</span>
                  </div>
                </div>
              );
            }
            if (isList) {
              const item = items[row.start]!;
              return (
                <ListRow key={item.path} {...itemProps(item, row.start)} offset={offset} rowIndex={rowIndex} />
              );
            }
            const tiles = [];
            for (let index = row.start; index < row.end; index += 1) {
              const item = items[index]!;
              tiles.push(<MosaicTile key={item.path} {...itemProps(item, index)} isGallery={isGallery && !item.isDir} thumbnail={props.thumbnailOf(item)} />);
            }
            return (
              <div
                key={`row-${row.start}`}
                role="row"
                aria-rowindex={rowIndex}
                className="listing__tiles"
                style={{ ...style, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
              >
                {tiles}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
