import type { ResourceItem } from '@burrow/protocol';
import { useQuery } from '../lib/query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowUp, Folder } from 'lucide-react';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../api/api-error';
import { fetchResource } from '../api/resources';
import { parentPath } from '../lib/paths';

type FolderPickerProps = {
  /** The folder being browsed, with a trailing slash. */
  folder: string;
  /** The highlighted subfolder, if any. */
  chosen: string | null;
  singleClick: boolean;
  onBrowse: (folder: string) => void;
  onChoose: (folder: string | null) => void;
};

const RowHeight = 40;

function folderPath(item: ResourceItem): string {
  return item.path.endsWith('/') ? item.path : item.path + '/';
}

/**
 * Browses folders for the move and copy dialogs: a click highlights a folder as the destination
 * (or opens it with the singleClick preference), a double click or Enter opens it. The list is
 * windowed like the main listing. Requests of folders left behind are cancelled and ignored.
 */
export function FolderPicker({ folder, chosen, singleClick, onBrowse, onChoose }: FolderPickerProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const lastClick = useRef<{ path: string; time: number } | null>(null);
  const [focused, setFocused] = useState(0);
  const listing = useQuery({ queryKey: ['resource', folder], queryFn: ({ signal }) => fetchResource(folder, signal) });
  const folders = useMemo(() => (listing.data?.items ?? []).filter((item) => item.isDir), [listing.data]);
  const entries: Array<{ path: string; name: string; isParent: boolean }> = useMemo(
    () => [
      ...(folder === '/' ? [] : [{ path: parentPath(folder), name: t('fileDialogs.transfer.parent'), isParent: true }]),
      ...folders.map((item) => ({ path: folderPath(item), name: item.name, isParent: false })),
    ],
    [folder, folders, t],
  );
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => RowHeight,
    overscan: 8,
  });

  const browse = (path: string) => {
    lastClick.current = null;
    setFocused(0);
    onBrowse(path);
  };

  const handleClick = (entry: (typeof entries)[number], index: number, timeStamp: number) => {
    setFocused(index);
    const previous = lastClick.current;
    if (entry.isParent || singleClick || (previous && previous.path === entry.path && timeStamp - previous.time <= 300)) {
      browse(entry.path);
      return;
    }
    lastClick.current = { path: entry.path, time: timeStamp };
    onChoose(chosen === entry.path ? null : entry.path);
  };

  const handleKeyDown = (event: KeyboardEvent) => {
    const entry = entries[focused];
    let next = focused;
    if (event.key === 'ArrowDown') next = Math.min(entries.length - 1, focused + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, focused - 1);
    else if (event.key === 'Enter' && entry) {
      event.preventDefault();
      browse(entry.path);
      return;
    } else if (event.key === ' ' && entry && !entry.isParent) {
      event.preventDefault();
      onChoose(chosen === entry.path ? null : entry.path);
      return;
    } else if (event.key === 'Backspace' && folder !== '/') {
      event.preventDefault();
      browse(parentPath(folder));
      return;
    } else return;
    event.preventDefault();
    setFocused(next);
    virtualizer.scrollToIndex(next);
    const target = entries[next];
    if (target && !target.isParent) onChoose(target.path);
  };

  const activeId = entries[focused] ? `picker-${focused}` : undefined;
  let body;
  if (listing.isPending) {
    body = <div className="spinner folder-picker__spinner" role="status" aria-label={t('common.loading')} />;
  } else if (listing.isError && !listing.data) {
    const code = errorCodeOf(listing.error);
    body = (
      <p className="folder-picker__message" role="alert">
        {code === 'forbidden' ? t('errors.forbidden') : code === 'not_found' ? t('errors.notFound') : code === 'no_connection' ? t('errors.connection') : t('errors.internal')}
      </p>
    );
  }
  return (
    <div className="folder-picker">
      <div className="folder-picker__location">
        <Folder aria-hidden="true" size={16} />
        <span title={folder}>{folder}</span>
      </div>
      {body ?? (
        <div
          ref={scrollRef}
          className="folder-picker__scroll"
          role="listbox"
          tabIndex={0}
          aria-label={t('fileDialogs.transfer.folders')}
          aria-activedescendant={activeId}
          onKeyDown={handleKeyDown}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const entry = entries[row.index]!;
              const isChosen = entry.path === chosen;
              return (
                <div
                  key={entry.path + (entry.isParent ? '..' : '')}
                  id={`picker-${row.index}`}
                  role="option"
                  aria-selected={isChosen}
                  className={`folder-picker__entry${isChosen ? ' is-chosen' : ''}${row.index === focused ? ' is-focused' : ''}`}
                  style={{ height: RowHeight, transform: `translateY(${row.start}px)` }}
                  onClick={(event) => handleClick(entry, row.index, event.timeStamp)}
                >
                  {entry.isParent ? <ArrowUp aria-hidden="true" size={18} /> : <Folder className="item-icon--folder" aria-hidden="true" size={18} />}
                  <span>{entry.name}</span>
                </div>
              );
            })}
          </div>
          {entries.length === 0 && <p className="folder-picker__message">{t('fileDialogs.transfer.noFolders')}</p>}
        </div>
      )}
    </div>
  );
}
