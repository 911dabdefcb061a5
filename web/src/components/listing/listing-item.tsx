import type { ResourceItem } from '@burrow/protocol';
import { Check } from 'lucide-react';
import { memo, useState, type DragEvent } from 'react';
import { Link } from '../../lib/router';
import { canDropInto, itemsOfDrag } from './drag-items';
import { ItemIcon } from './item-icon';
import type { ItemGestureHandlers } from './use-item-gestures';

export type ItemDropHandler = (folder: ResourceItem, paths: string[]) => void;

export type ItemProps = {
  item: ResourceItem;
  index: number;
  isSelected: boolean;
  isDimmed: boolean;
  /** The one item reachable with Tab (roving focus). */
  isTabbable: boolean;
  href: string;
  sizeText: string;
  dateText: string;
  dateTitle: string;
  gesturesFor: (path: string) => ItemGestureHandlers;
  canDrag: boolean;
  onDragStart: (item: ResourceItem, event: DragEvent) => void;
  onDragEnd: () => void;
  onDropItems: ItemDropHandler;
  /** Gallery thumbnail URL, when the item has one. */
  thumbnail?: string;
};

const DropClass = 'is-drop-target';

/** Drag source and, for folders, drop target behaviour shared by rows and tiles. */
function dragProps({ item, canDrag, onDragStart, onDragEnd, onDropItems }: ItemProps) {
  if (!canDrag) return {};
  const accepts = (event: DragEvent) => {
    const paths = itemsOfDrag(event);
    return paths !== null && canDropInto(item.path, paths) ? paths : null;
  };
  return {
    draggable: true,
    onDragStart: (event: DragEvent) => onDragStart(item, event),
    onDragEnd,
    ...(item.isDir && {
      onDragOver: (event: DragEvent) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        event.currentTarget.classList.add(DropClass);
      },
      onDragLeave: (event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) event.currentTarget.classList.remove(DropClass);
      },
      onDrop: (event: DragEvent) => {
        event.currentTarget.classList.remove(DropClass);
        const paths = accepts(event);
        if (!paths) return;
        event.preventDefault();
        // The drop is handled here; a folder drop must not also count as a drop on the listing.
        event.stopPropagation();
        onDropItems(item, paths);
      },
    }),
  };
}

function ItemLink({ item, href, isTabbable, className, children }: Pick<ItemProps, 'item' | 'href' | 'isTabbable'> & { className: string; children: React.ReactNode }) {
  return (
    <Link
      to={href}
      className={className}
      tabIndex={isTabbable ? 0 : -1}
      draggable={false}
      // The item decides what a click does (select or open); the link only serves the keyboard,
      // screen readers and "open in a new tab".
      onClick={(event) => event.preventDefault()}
      data-item-link
      aria-label={item.name}
    >
      {children}
    </Link>
  );
}

/** A row of the list view: name, size and modification time, as cells of the grid. */
export const ListRow = memo(function ListRow(props: ItemProps & { offset: number; rowIndex: number }) {
  const { item, index, isSelected, sizeText, dateText, dateTitle, gesturesFor } = props;
  return (
    <div
      role="row"
      aria-rowindex={props.rowIndex}
      style={{ transform: `translateY(${props.offset}px)` }}
      aria-selected={isSelected}
      className={`listing-row${isSelected ? ' is-selected' : ''}${props.isDimmed ? ' is-dimmed' : ''}`}
      data-index={index}
      data-path={item.path}
      data-dir={item.isDir || undefined}
      {...gesturesFor(item.path)}
      {...dragProps(props)}
    >
      <div role="gridcell" className="listing-row__name">
        <ItemLink item={item} href={props.href} isTabbable={props.isTabbable} className="listing-row__link">
          <span className="listing-row__icon">
            <ItemIcon item={item} />
            {isSelected && <Check className="listing-row__check" aria-hidden="true" size={12} strokeWidth={3} />}
          </span>
          <span className="listing-row__label">{item.name}</span>
        </ItemLink>
      </div>
      <div role="gridcell" className="listing-row__size">
        {sizeText}
      </div>
      <div role="gridcell" className="listing-row__modified">
        <time dateTime={item.modified} title={dateTitle}>
          {dateText}
        </time>
      </div>
    </div>
  );
});

/** A tile of the mosaic views; in the gallery, images show their thumbnail. */
export const MosaicTile = memo(function MosaicTile(props: ItemProps & { isGallery: boolean }) {
  const { item, index, isSelected, sizeText, dateText, dateTitle, gesturesFor, thumbnail, isGallery } = props;
  const [isBroken, setBroken] = useState(false);
  const showThumbnail = isGallery && thumbnail && !isBroken;
  return (
    <div
      role="gridcell"
      aria-selected={isSelected}
      className={`tile${isGallery ? ' tile--gallery' : ''}${isSelected ? ' is-selected' : ''}${props.isDimmed ? ' is-dimmed' : ''}`}
      data-index={index}
      data-path={item.path}
      data-dir={item.isDir || undefined}
      {...gesturesFor(item.path)}
      {...dragProps(props)}
    >
      {/* Only the name is the link, so its accessible name is what it shows (WCAG 2.5.3); it
          still covers the whole tile (see .tile__link::after) for the pointer. */}
      <span className="tile__body">
        <span className="tile__visual">
          {showThumbnail ? (
            <img className="tile__thumbnail" src={thumbnail} alt="" loading="lazy" decoding="async" draggable={false} onError={() => setBroken(true)} />
          ) : (
            <ItemIcon item={item} size={isGallery ? 48 : 28} />
          )}
        </span>
        <span className="tile__text">
          <ItemLink item={item} href={props.href} isTabbable={props.isTabbable} className="tile__link tile__name">
            {item.name}
          </ItemLink>
          <span className="tile__meta">
            {!item.isDir && <span>{sizeText}</span>}
            <time dateTime={item.modified} title={dateTitle}>
              {dateText}
            </time>
          </span>
        </span>
      </span>
      <span className="tile__check" aria-hidden="true">
        <Check size={14} strokeWidth={3} />
      </span>
    </div>
  );
});
