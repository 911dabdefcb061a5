import type { ResourceItem } from '@burrow/protocol';
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatModified } from '../../lib/format-date';
import { formatSize } from '../../lib/format-size';
import type { SelectMode } from './share-selection';
import { ShareItemIcon } from './share-item-icon';
import './share-listing.css';

type ShareListingProps = {
  /** Folders first, then files, as the server sorts them. */
  items: ResourceItem[];
  /** How many items are shown; the rest sit behind the "+N" entry. */
  limit: number;
  selected: readonly string[];
  /** Clicks toggle items instead of replacing the selection. */
  isMultiple: boolean;
  /** Open on a single click (the signed-in user's preference). */
  isSingleClick: boolean;
  locale: string;
  absoluteDates: boolean;
  /** A thumbnail address for images, when thumbnails are enabled. */
  thumbnailOf: (item: ResourceItem) => string | undefined;
  onPick: (path: string, mode: SelectMode) => void;
  onOpen: (item: ResourceItem) => void;
  onShowMore: () => void;
};

function modeOf(event: MouseEvent | KeyboardEvent, isMultiple: boolean): SelectMode {
  if (event.shiftKey) return 'range';
  return event.ctrlKey || event.metaKey || isMultiple ? 'toggle' : 'single';
}

/**
 * The read-only item list of a shared folder: a listbox where a click selects (ctrl/cmd-click
 * toggles, shift-click selects a range), a double click or Enter opens, arrows move between
 * items and Space selects. Only `limit` items are drawn; a "+N" entry shows more.
 */
export function ShareListing(props: ShareListingProps) {
  const { items, limit, selected, isMultiple, isSingleClick, locale, absoluteDates, thumbnailOf, onPick, onOpen, onShowMore } = props;
  const { t } = useTranslation();
  const shown = items.slice(0, limit);
  const [focused, setFocused] = useState<string>();
  // One item is in the Tab order: the focused one, else the first selected, else the first.
  const tabStop = shown.find((item) => item.path === focused)?.path ?? shown.find((item) => selected.includes(item.path))?.path ?? shown[0]?.path;

  const focusAt = (index: number, list: HTMLElement) => {
    const target = shown[Math.max(0, Math.min(shown.length - 1, index))];
    if (!target) return;
    setFocused(target.path);
    list.querySelector<HTMLElement>(`[data-path="${CSS.escape(target.path)}"]`)?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLLIElement>, index: number, item: ResourceItem) => {
    const list = event.currentTarget.parentElement;
    if (!list) return;
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: shown.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      focusAt(moves[event.key]!, list);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onOpen(item);
    } else if (event.key === ' ') {
      event.preventDefault();
      onPick(item.path, modeOf(event, isMultiple));
    }
  };

  const remaining = items.length - shown.length;
  return (
    <div className="share-list">
      <div className="share-list__head" aria-hidden="true">
        <span>{t('share.columns.name')}</span>
        <span className="share-list__size">{t('share.columns.size')}</span>
        <span className="share-list__modified">{t('share.columns.modified')}</span>
      </div>
      <ul className="share-list__items" role="listbox" aria-label={t('share.listLabel')} aria-multiselectable="true">
        {shown.map((item, index) => {
          const isSelected = selected.includes(item.path);
          const thumbnail = thumbnailOf(item);
          return (
            <li
              key={item.path}
              role="option"
              aria-selected={isSelected}
              data-path={item.path}
              tabIndex={item.path === tabStop ? 0 : -1}
              className={isSelected ? 'share-list__item share-list__item--selected' : 'share-list__item'}
              onFocus={() => setFocused(item.path)}
              onClick={(event) => {
                if (isSingleClick && !event.shiftKey && !event.ctrlKey && !event.metaKey && !isMultiple) onOpen(item);
                else onPick(item.path, modeOf(event, isMultiple));
              }}
              onDoubleClick={() => onOpen(item)}
              onKeyDown={(event) => handleKeyDown(event, index, item)}
            >
              <span className="share-list__name">
                {thumbnail ? (
                  <img className="share-list__thumb" src={thumbnail} alt="" width={28} height={28} loading="lazy" decoding="async" />
                ) : (
                  <ShareItemIcon item={item} size={22} />
                )}
                <span className="share-list__label">{item.name}</span>
                {item.isDir && <span className="visually-hidden">{t('share.folder')}</span>}
              </span>
              <span className="share-list__size">{item.isDir ? '—' : formatSize(item.size, locale)}</span>
              <time className="share-list__modified" dateTime={item.modified}>
                {formatModified(item.modified, { absolute: absoluteDates, locale })}
              </time>
            </li>
          );
        })}
      </ul>
      {remaining > 0 && (
        <button type="button" className="share-list__more" onClick={onShowMore}>
          +{remaining}
          <span className="visually-hidden"> {t('share.showMore')}</span>
        </button>
      )}
    </div>
  );
}
