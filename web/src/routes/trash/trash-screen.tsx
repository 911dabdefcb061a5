import type { TrashItem, TrashList, TrashSortField } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../../lib/query';
import { ArrowDown, ArrowUp, RotateCcw, Trash2, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf, isApiError } from '../../api/api-error';
import { deleteForever, emptyTrash, listTrash, restoreFromTrash } from '../../api/trash';
import { ErrorScreen } from '../../components/errors/error-screen';
import { ItemIcon } from '../../components/listing/item-icon';
import { useDocumentTop, useWindowRows } from '../../components/listing/use-window-rows';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatAbsolute, formatRelative } from '../../lib/format-date';
import { formatSize } from '../../lib/format-size';
import { showError, showSuccess } from '../../lib/notify';
import { openDialog } from '../../stores/dialog-store';
import { useSession } from '../../stores/session-store';
import type { ReplaceRenameChoice } from '../../dialogs/dialog-types';
import { usePageTitle } from '../use-page-title';
import './trash-screen.css';

type Sort = { by: TrashSortField; asc: boolean };

const RowHeight = 60;
const Overscan = 8;

const trashKey = (sort: Sort) => ['trash', sort.by, sort.asc] as const;

/** Asks which way to restore onto a taken name: rename (keep both), replace, or nothing. */
function askReplaceOrRename(name: string): Promise<ReplaceRenameChoice> {
  return new Promise((resolve) => openDialog('replace-rename', { names: [name], onChoice: resolve }));
}


function SortHeader({ field, label, sort, onSort }: { field: TrashSortField; label: string; sort: Sort; onSort: (field: TrashSortField) => void }) {
  const { t } = useTranslation();
  const isActive = sort.by === field;
  const Arrow = sort.asc ? ArrowUp : ArrowDown;
  return (
    <div role="columnheader" className={`trash__header trash__header--${field}`} aria-sort={isActive ? (sort.asc ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="trash__sort" onClick={() => onSort(field)} title={t('listing.sortBy', { field: label })}>
        <span>{label}</span>
        {isActive && <Arrow aria-hidden="true" size={14} />}
      </button>
    </div>
  );
}

type RowProps = {
  item: TrashItem;
  canRestore: boolean;
  canDelete: boolean;
  onRestore: (item: TrashItem) => void;
  onDelete: (item: TrashItem) => void;
};

function TrashRow({ item, canRestore, canDelete, onRestore, onDelete }: RowProps) {
  const { t } = useTranslation();
  const locale = currentLocaleTag();
  const deleted = new Date(item.deleted);
  const nameId = `trash-${item.id}-name`;
  return (
    <>
      <div role="cell" className="trash__cell trash__cell--name">
        <ItemIcon item={{ ...item, type: '' }} size={24} />
        <span className="trash__names">
          <span id={nameId} className="trash__name">
            {item.name}
          </span>
          <span className="trash__origin" title={item.path}>
            {item.path}
          </span>
        </span>
      </div>
      <div role="cell" className="trash__cell trash__cell--deleted">
        <time dateTime={item.deleted} title={formatAbsolute(deleted, locale)}>
          {formatRelative(deleted, locale)}
        </time>
      </div>
      <div role="cell" className="trash__cell trash__cell--size">
        {formatSize(item.size, locale)}
      </div>
      <div role="cell" className="trash__cell trash__cell--actions">
        {canRestore && (
          <button type="button" className="icon-button" aria-label={t('trash.restore')} aria-describedby={nameId} title={t('trash.restore')} onClick={() => onRestore(item)}>
            <RotateCcw aria-hidden="true" size={18} />
          </button>
        )}
        {canDelete && (
          <button
            type="button"
            className="icon-button trash__danger"
            aria-label={t('trash.deleteForever')}
            aria-describedby={nameId}
            title={t('trash.deleteForever')}
            onClick={() => onDelete(item)}
          >
            <X aria-hidden="true" size={18} />
          </button>
        )}
      </div>
    </>
  );
}

/**
 * The list of deleted items, windowed as the folder listing is: the page scrolls, and only the
 * rows in and near the viewport are in the DOM, however large the trash.
 */
function TrashTable({ list, sort, onSort, ...actions }: { list: TrashList; sort: Sort; onSort: (field: TrashSortField) => void } & Omit<RowProps, 'item'>) {
  const { t } = useTranslation();
  const bodyRef = useRef<HTMLDivElement>(null);
  const scrollMargin = useDocumentTop(bodyRef);
  const windowRows = useWindowRows({ count: list.items.length, estimateSize: () => RowHeight, overscan: Overscan, scrollMargin });
  return (
    <div role="table" className="trash__table" aria-label={t('trash.title')} aria-rowcount={list.items.length + 1}>
      <div role="rowgroup">
        <div role="row" className="trash__row trash__row--header" aria-rowindex={1}>
          <SortHeader field="name" label={t('trash.name')} sort={sort} onSort={onSort} />
          <SortHeader field="deleted" label={t('trash.deleted')} sort={sort} onSort={onSort} />
          <SortHeader field="size" label={t('trash.size')} sort={sort} onSort={onSort} />
          <div role="columnheader" className="trash__header trash__header--actions">
            <span className="visually-hidden">{t('trash.actions')}</span>
          </div>
        </div>
      </div>
      <div role="rowgroup" ref={bodyRef} className="trash__body" style={{ height: windowRows.getTotalSize() }}>
        {windowRows.getVirtualItems().map((row) => {
          const item = list.items[row.index]!;
          return (
            <div
              role="row"
              key={item.id}
              className="trash__row"
              aria-rowindex={row.index + 2}
              style={{ transform: `translateY(${row.start - scrollMargin}px)`, height: row.size }}
            >
              <TrashRow item={item} {...actions} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The Trash screen: the caller's deleted items, to restore or delete for good. */
export function TrashScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const perm = useSession((state) => state.user?.perm);
  const [sort, setSort] = useState<Sort>({ by: 'deleted', asc: false });
  const query = useQuery({ queryKey: trashKey(sort), queryFn: ({ signal }) => listTrash(sort, signal), staleTime: 0 });
  usePageTitle(t('trash.title'));
  const locale = currentLocaleTag();

  const handleSort = (field: TrashSortField) =>
    setSort((current) => (current.by === field ? { by: field, asc: !current.asc } : { by: field, asc: field === 'name' }));

  /** Everything shown from the trash and the folders items went back to is out of date. */
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['trash'] }),
      queryClient.invalidateQueries({ queryKey: ['resource'] }),
      queryClient.invalidateQueries({ queryKey: ['usage'] }),
    ]);
    // The pressed button may have left with its row; the heading keeps keyboard users here.
    document.getElementById('trash-heading')?.focus();
  };

  const handleRestore = async (item: TrashItem) => {
    try {
      let result;
      try {
        result = await restoreFromTrash(item.id);
      } catch (error) {
        if (!isApiError(error) || error.code !== 'conflict') throw error;
        const choice = await askReplaceOrRename(item.name);
        if (choice === 'cancel') return;
        result = await restoreFromTrash(item.id, choice === 'rename' ? { rename: true } : { override: true });
      }
      void showSuccess(t('trash.restored', { path: result.path }));
    } catch (error) {
      void showError(error);
    } finally {
      await refresh();
    }
  };

  const handleDelete = (item: TrashItem) =>
    openDialog('confirm', {
      title: t('trash.deleteForeverTitle'),
      message: t('trash.deleteForeverMessage', { name: item.name }),
      confirmLabel: t('trash.deleteForever'),
      onConfirm: async () => {
        try {
          await deleteForever(item.id);
        } finally {
          await refresh();
        }
      },
    });

  const handleEmpty = () =>
    openDialog('confirm', {
      title: t('trash.emptyTitle'),
      message: t('trash.emptyMessage'),
      confirmLabel: t('trash.empty'),
      onConfirm: async () => {
        try {
          await emptyTrash();
          void showSuccess(t('trash.emptied'));
        } finally {
          await refresh();
        }
      },
    });

  const canDelete = Boolean(perm?.delete);
  let body;
  if (query.isPending) {
    body = (
      <div className="trash__loading">
        <div className="spinner" role="status" aria-label={t('common.loading')} />
      </div>
    );
  } else if (query.isError) {
    body = <ErrorScreen code={errorCodeOf(query.error)} />;
  } else if (query.data.total === 0) {
    body = (
      <div className="trash__empty">
        <Trash2 aria-hidden="true" size={48} strokeWidth={1.25} />
        <p className="trash__empty-title">{t('trash.isEmpty')}</p>
        <p className="trash__empty-hint">{t('trash.emptyHint')}</p>
      </div>
    );
  } else {
    body = (
      <TrashTable
        list={query.data}
        sort={sort}
        onSort={handleSort}
        canRestore={Boolean(perm?.create)}
        canDelete={canDelete}
        onRestore={(item) => void handleRestore(item)}
        onDelete={handleDelete}
      />
    );
  }

  return (
    <section className="page trash" aria-labelledby="trash-heading">
      <div className="trash__heading">
        <div>
          <h1 id="trash-heading" className="page__title trash__title" tabIndex={-1}>
            {t('trash.title')}
          </h1>
          {query.data && query.data.total > 0 && (
            <p className="trash__summary">
              {t('listing.itemCount', { count: query.data.total })} · {formatSize(query.data.totalSize, locale)}
            </p>
          )}
        </div>
        {canDelete && query.data && query.data.total > 0 && (
          <button type="button" className="button button--danger" onClick={handleEmpty}>
            <Trash2 aria-hidden="true" size={16} />
            <span>{t('trash.empty')}</span>
          </button>
        )}
      </div>
      {body}
    </section>
  );
}
