import type { Resource, ResourceItem, TokenUser } from '@burrow/protocol';
import { FolderOpen, ListChecks, X } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { thumbnailUrl } from '../../api/resources';
import { groupDigits } from '../../components/listing/group-digits';
import { Listing } from '../../components/listing/listing';
import { groupItems, nextSorting, normaliseSortField, normaliseViewMode, type SortField } from '../../components/listing/listing-model';
import type { SelectionSnapshot } from '../../components/listing/selection-logic';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatAbsolute, formatRelative } from '../../lib/format-date';
import { formatSize } from '../../lib/format-size';
import { showError } from '../../lib/notify';
import { useAppSettings } from '../../stores/app-settings-store';
import { useClipboard } from '../../stores/clipboard-store';
import { useDialogs } from '../../stores/dialog-store';
import { clearSelection, keepSelectionIn, setMultipleSelection, setSelection, useSelection } from '../../stores/selection-store';
import { dropInto } from './file-operations';
import type { FileActionContext } from './files-actions';
import { FilesHeading } from './files-heading';
import { FilesToolbar } from './files-toolbar';
import { itemRoute, openItem } from './open-item';
import { useFilesKeyboard } from './use-files-keyboard';
import { useUploadDrop } from './use-upload-drop';
import { saveSorting } from './view-preferences';

/**
 * Formats modification times, remembering each result: a listing has many equal timestamps.
 * Relative times count from when the listing arrived, so each new listing starts afresh: an item
 * changed while the folder was on screen never reads as changing in the future.
 */
function useDateFormatter(absolute: boolean, locale: string, listing: Resource) {
  return useMemo(() => {
    const cache = new Map<string, { text: string; title: string }>();
    const now = new Date();
    return (modified: string) => {
      let entry = cache.get(modified);
      if (!entry) {
        const date = new Date(modified);
        entry = Number.isNaN(date.getTime())
          ? { text: modified, title: modified }
          : absolute
            ? { text: formatAbsolute(date, locale), title: formatRelative(date, locale, now) }
            : { text: formatRelative(date, locale, now), title: formatAbsolute(date, locale) };
        cache.set(modified, entry);
      }
      return entry;
    };
    // The listing is only the moment to count from.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [absolute, locale, listing]);
}

type FolderViewProps = {
  folder: string;
  resource: Resource;
  user: TokenUser;
  isRefreshing: boolean;
};

/** A folder on screen: its listing, the selection, the actions and the keyboard. */
export function FolderView({ folder, resource, user, isRefreshing }: FolderViewProps) {
  const { t } = useTranslation();
  const locale = currentLocaleTag();
  const settings = useAppSettings((state) => state.settings);
  const { selected, anchor, isMultiple, reveal } = useSelection();
  // Scoped here, where a folder is shown, not on every path: a file page shown a moment before
  // must not trim a selection made for the folder it is closing back to.
  useEffect(() => keepSelectionIn(folder), [folder]);
  const clipboard = useClipboard();
  const hasDialog = useDialogs((state) => state.stack.length > 0);
  const [pendingSorting, setPendingSorting] = useState<{ by: SortField; asc: boolean } | null>(null);

  const { ordered, folderCount } = useMemo(() => groupItems(resource.items ?? []), [resource.items]);
  const selection = useMemo(() => (selected.size === 0 ? [] : ordered.filter((item) => selected.has(item.path))), [ordered, selected]);
  const viewMode = normaliseViewMode(user.viewMode);
  const sorting = pendingSorting ?? { by: normaliseSortField(resource.sorting?.by), asc: resource.sorting?.asc ?? false };
  const formatDate = useDateFormatter(user.dateFormat, locale, resource);
  const folders = resource.numDirs ?? folderCount;
  const files = resource.numFiles ?? ordered.length - folderCount;
  const canThumb = settings.EnableThumbs && user.perm.download;

  const context: FileActionContext = { user, folder, resource, ordered, selection, isListing: true, viewMode, isMultiple };
  useFilesKeyboard(context);
  useUploadDrop(folder, user.perm.create);

  const handleSort = (by: SortField) => {
    const next = nextSorting(sorting, by);
    setPendingSorting(next);
    saveSorting(next)
      .catch((error: unknown) => void showError(error))
      .finally(() => setPendingSorting(null));
  };

  const handleSelection = useCallback((next: SelectionSnapshot) => setSelection(next.selected, next.anchor), []);
  const handleLongPress = useCallback((next: SelectionSnapshot) => {
    setSelection(next.selected, next.anchor);
    setMultipleSelection(true);
  }, []);
  const handleDrop = (target: string, paths: string[]) => {
    const byPath = new Map(ordered.map((item) => [item.path, item]));
    const items = paths.map((path) => byPath.get(path)).filter((item): item is ResourceItem => item !== undefined);
    dropInto(target, items, folder).catch((error: unknown) => void showError(error));
  };
  const cutPaths = useMemo(
    () => (clipboard.key === 'x' && clipboard.source === folder ? new Set(clipboard.items.map((item) => item.from)) : undefined),
    [clipboard, folder],
  );

  return (
    <>
      <FilesHeading path={folder} onDropItems={user.perm.rename ? handleDrop : undefined} />
      <FilesToolbar context={context} />
      <div className="files__meta">
        <span>
          {groupDigits(t('listing.folderCount', { count: folders }), folders, locale)} · {groupDigits(t('listing.fileCount', { count: files }), files, locale)}
        </span>
        {isRefreshing && <span className="files__refreshing spinner" role="status" aria-label={t('common.loading')} />}
      </div>
      {isMultiple && (
        <div className="selection-banner" role="status">
          <ListChecks aria-hidden="true" size={18} />
          <span>
            {t('listing.multipleSelection')} · {groupDigits(t('listing.selectedCount', { count: selection.length }), selection.length, locale)}
          </span>
          <button type="button" className="button button--ghost selection-banner__clear" onClick={clearSelection}>
            <X aria-hidden="true" size={16} />
            {t('listing.clear')}
          </button>
        </div>
      )}
      {ordered.length === 0 ? (
        <div className="files__empty">
          <FolderOpen aria-hidden="true" size={56} strokeWidth={1.25} />
          <p>{t('files.empty')}</p>
        </div>
      ) : (
        <Listing
          items={ordered}
          folderCount={folderCount}
          viewMode={viewMode}
          sorting={sorting}
          selected={selected}
          anchor={anchor}
          isMultiple={isMultiple}
          singleClick={user.singleClick}
          canDrag={user.perm.rename}
          reveal={reveal}
          canTakeFocus={!hasDialog}
          dimmed={cutPaths}
          hrefOf={itemRoute}
          thumbnailOf={(item) => (canThumb && item.type === 'image' ? thumbnailUrl(item.path, item.modified) : undefined)}
          formatSize={(bytes) => formatSize(bytes, locale)}
          formatDate={formatDate}
          onSort={handleSort}
          onSelectionChange={handleSelection}
          onLongPress={handleLongPress}
          onOpen={openItem}
          onDropItems={(target, paths) => handleDrop(target.path, paths)}
          groupTotals={resource.partial ? { folders, files } : undefined}
        />
      )}
      {resource.partial && (
        <div className="files__rest" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('listing.loadingRest')}
        </div>
      )}
    </>
  );
}
