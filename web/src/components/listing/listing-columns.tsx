import { ArrowDown, ArrowUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isVisuallyAscending, SortFields, type SortField } from './listing-model';

type SortControlsProps = {
  by: SortField;
  asc: boolean;
  onSort: (by: SortField) => void;
};

function SortArrow({ isAscending }: { isAscending: boolean }) {
  const Icon = isAscending ? ArrowUp : ArrowDown;
  return <Icon className="sort-arrow" aria-hidden="true" size={14} strokeWidth={2.25} />;
}

function useFieldLabels() {
  const { t } = useTranslation();
  return { name: t('files.name'), size: t('files.size'), modified: t('files.modified') } satisfies Record<SortField, string>;
}

/**
 * The list view's column headings; each sorts by its column, and the active one flips its
 * direction (the grid's `aria-sort` says which way the list reads).
 */
export function ListColumns({ by, asc, onSort, rowIndex }: SortControlsProps & { rowIndex: number }) {
  const { t } = useTranslation();
  const labels = useFieldLabels();
  return (
    <div role="rowgroup" className="listing__head">
      <div role="row" className="listing-row listing-row--head" aria-rowindex={rowIndex}>
        {SortFields.map((field) => {
          const isActive = field === by;
          const isAscending = isVisuallyAscending(field, asc);
          return (
            <div
              key={field}
              role="columnheader"
              className={`listing-row__${field}`}
              aria-sort={isActive ? (isAscending ? 'ascending' : 'descending') : 'none'}
            >
              <button type="button" className={`sort-button${isActive ? ' is-active' : ''}`} onClick={() => onSort(field)} title={t('listing.sortBy', { field: labels[field] })}>
                <span>{labels[field]}</span>
                {isActive && <SortArrow isAscending={isAscending} />}
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** Sort buttons for the mosaic views, which have no column headings. */
export function SortBar({ by, asc, onSort }: SortControlsProps) {
  const { t } = useTranslation();
  const labels = useFieldLabels();
  return (
    <div className="sort-bar" role="group" aria-label={t('listing.sorting')}>
      {SortFields.map((field) => {
        const isActive = field === by;
        return (
          <button
            key={field}
            type="button"
            className={`sort-button sort-button--pill${isActive ? ' is-active' : ''}`}
            aria-pressed={isActive}
            onClick={() => onSort(field)}
            title={t('listing.sortBy', { field: labels[field] })}
          >
            <span>{labels[field]}</span>
            {isActive && <SortArrow isAscending={isVisuallyAscending(field, asc)} />}
            {isActive && <span className="visually-hidden">{isVisuallyAscending(field, asc) ? t('listing.ascending') : t('listing.descending')}</span>}
          </button>
        );
      })}
    </div>
  );
}
