import type { AuditEntry, AuditOutcome, AuditSettings } from '@burrow/protocol';
import type { TFunction } from 'i18next';
import { AuditActions, AuditOutcomes } from '@burrow/protocol/audit-constants';
import { useInfiniteQuery, useQuery, useQueryClient } from '../../lib/query';
import { Download } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { auditExportUrl, fetchAuditSettings, listAudit, NoAuditFilters, saveAuditSettings, type AuditFilters } from '../../api/audit';
import { useDocumentTop, useWindowRows } from '../../components/listing/use-window-rows';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatAbsolute } from '../../lib/format-date';
import { showError, showSuccess } from '../../lib/notify';
import { SettingsLoadError, SettingsLoading } from './settings-states';
import { SettingsPage } from './settings-page';
import './audit-screen.css';

const RowHeight = 56;
const Overscan = 10;

const auditKey = (filters: AuditFilters) => ['audit', filters] as const;
const auditSettingsKey = ['audit-settings'] as const;

/** The words for an outcome, spelt out so every key is found where it is used. */
function outcomeLabel(t: TFunction, outcome: AuditOutcome): string {
  const labels: Record<AuditOutcome, string> = {
    ok: t('settings.audit.outcomes.ok'),
    denied: t('settings.audit.outcomes.denied'),
    failed: t('settings.audit.outcomes.failed'),
  };
  return labels[outcome];
}


function FiltersForm({ filters, onApply }: { filters: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(filters);
  const set = (key: keyof AuditFilters) => (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, user: draft.user.trim(), path: draft.path.trim() });
  };
  return (
    <form className="card audit__filters" aria-label={t('settings.audit.filters')} onSubmit={submit}>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.user')}</span>
        <input className="input" name="user" value={draft.user} onChange={set('user')} autoComplete="off" />
      </label>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.action')}</span>
        <select className="input" name="action" value={draft.action} onChange={set('action')}>
          <option value="">{t('settings.audit.anyAction')}</option>
          {AuditActions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </select>
      </label>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.from')}</span>
        <input className="input" type="date" name="from" value={draft.from} onChange={set('from')} />
      </label>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.to')}</span>
        <input className="input" type="date" name="to" value={draft.to} onChange={set('to')} />
      </label>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.path')}</span>
        <input className="input" name="path" value={draft.path} onChange={set('path')} autoComplete="off" />
      </label>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.outcome')}</span>
        <select className="input" name="outcome" value={draft.outcome} onChange={set('outcome')}>
          <option value="">{t('settings.audit.anyOutcome')}</option>
          {AuditOutcomes.map((outcome) => (
            <option key={outcome} value={outcome}>
              {outcomeLabel(t, outcome)}
            </option>
          ))}
        </select>
      </label>
      <div className="audit__filter-buttons">
        <button type="submit" className="button button--primary">
          {t('settings.audit.apply')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            setDraft(NoAuditFilters);
            onApply(NoAuditFilters);
          }}
        >
          {t('settings.audit.clear')}
        </button>
      </div>
    </form>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const time = new Date(entry.time);
  const target = entry.destination ? `${entry.path} → ${entry.destination}` : entry.path;
  return (
    <>
      <div role="cell" className="audit__cell audit__cell--time">
        <time dateTime={entry.time}>{formatAbsolute(time, currentLocaleTag())}</time>
      </div>
      <div role="cell" className="audit__cell audit__cell--user">
        <span className="audit__user">{entry.username}</span>
        <span className="audit__client">{entry.client}</span>
      </div>
      <div role="cell" className="audit__cell audit__cell--action">
        {entry.action}
      </div>
      <div role="cell" className="audit__cell audit__cell--path" title={target}>
        {target}
      </div>
      <div role="cell" className={`audit__cell audit__cell--outcome audit__outcome--${entry.outcome}`}>
        {outcomeLabel(t, entry.outcome)}
        {entry.status > 0 && <span className="audit__status"> {entry.status}</span>}
      </div>
    </>
  );
}

/** Entries windowed as the folder listing is; older pages load as the end comes into view. */
function AuditTable({ entries, hasMore, onMore }: { entries: AuditEntry[]; hasMore: boolean; onMore: () => void }) {
  const { t } = useTranslation();
  const bodyRef = useRef<HTMLDivElement>(null);
  const scrollMargin = useDocumentTop(bodyRef);
  const windowRows = useWindowRows({ count: entries.length, estimateSize: () => RowHeight, overscan: Overscan, scrollMargin });
  const rows = windowRows.getVirtualItems();
  const lastShown = rows.length > 0 ? rows[rows.length - 1]!.index : -1;
  useEffect(() => {
    if (hasMore && lastShown >= entries.length - 1) onMore();
  }, [hasMore, lastShown, entries.length, onMore]);
  return (
    <div role="table" className="audit__table" aria-label={t('settings.audit.title')} aria-rowcount={hasMore ? -1 : entries.length + 1}>
      <div role="rowgroup">
        <div role="row" className="audit__row audit__row--header" aria-rowindex={1}>
          <div role="columnheader">{t('settings.audit.time')}</div>
          <div role="columnheader">{t('settings.audit.user')}</div>
          <div role="columnheader">{t('settings.audit.action')}</div>
          <div role="columnheader">{t('settings.audit.target')}</div>
          <div role="columnheader">{t('settings.audit.outcome')}</div>
        </div>
      </div>
      <div role="rowgroup" ref={bodyRef} className="audit__body" style={{ height: windowRows.getTotalSize() }}>
        {rows.map((row) => {
          const entry = entries[row.index]!;
          return (
            <div role="row" key={entry.id} className="audit__row" aria-rowindex={row.index + 2} style={{ transform: `translateY(${row.start - scrollMargin}px)`, height: row.size }}>
              <AuditRow entry={entry} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RetentionForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: auditSettingsKey, queryFn: ({ signal }) => fetchAuditSettings(signal) });
  const [draft, setDraft] = useState<AuditSettings | undefined>(undefined);
  const value = draft ?? query.data;
  if (!value) return null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await saveAuditSettings(value);
      queryClient.setQueryData(auditSettingsKey, saved);
      setDraft(undefined);
      void showSuccess(t('settings.audit.saved'));
    } catch (error) {
      void showError(error);
    }
  };
  const number = (key: keyof AuditSettings) => (event: { target: { value: string } }) => setDraft({ ...value, [key]: Number(event.target.value) });
  return (
    <form className="card audit__retention" aria-labelledby="audit-retention-heading" onSubmit={(event) => void submit(event)}>
      <h2 id="audit-retention-heading" className="audit__subheading">
        {t('settings.audit.retentionTitle')}
      </h2>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.retentionDays')}</span>
        <input className="input" type="number" min={0} max={36500} name="retentionDays" value={value.retentionDays} onChange={number('retentionDays')} />
      </label>
      <label className="field audit__field">
        <span className="field__label">{t('settings.audit.maxEntries')}</span>
        <input className="input" type="number" min={1000} max={100000000} name="maxEntries" value={value.maxEntries} onChange={number('maxEntries')} />
      </label>
      <div className="audit__filter-buttons">
        <button type="submit" className="button button--primary">
          {t('settings.actions.save')}
        </button>
      </div>
    </form>
  );
}

/** The audit log (admins): who did what, when and from where, filtered, windowed and exported. */
export function AuditScreen() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AuditFilters>(NoAuditFilters);
  const pages = useInfiniteQuery({
    queryKey: auditKey(filters),
    queryFn: ({ pageParam, signal }) => listAudit(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });
  const entries = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const more = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };

  const actions = (
    <>
      <a className="button button--ghost" href={auditExportUrl(filters, 'csv')} download>
        <Download aria-hidden="true" size={16} /> {t('settings.audit.exportCsv')}
      </a>
      <a className="button button--ghost" href={auditExportUrl(filters, 'ndjson')} download>
        <Download aria-hidden="true" size={16} /> {t('settings.audit.exportNdjson')}
      </a>
    </>
  );

  let content;
  if (pages.isPending) content = <SettingsLoading />;
  else if (pages.isError) content = <SettingsLoadError error={pages.error} />;
  else if (entries.length === 0) content = <p className="settings__empty">{t('settings.audit.empty')}</p>;
  else content = <AuditTable entries={entries} hasMore={pages.hasNextPage} onMore={more} />;

  return (
    <SettingsPage title={t('settings.audit.title')} actions={actions}>
      <FiltersForm filters={filters} onApply={setFilters} />
      {content}
      {pages.isFetchingNextPage && <p className="audit__more" role="status">{t('settings.audit.loadingMore')}</p>}
      <RetentionForm />
    </SettingsPage>
  );
}
