import type { ApiToken, Permissions } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../../../lib/query';
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { listApiTokens, revokeApiToken } from '../../../api/api-tokens';
import { currentLocaleTag } from '../../../i18n/i18n';
import { formatAbsolute, formatRelative } from '../../../lib/format-date';
import { showSuccess } from '../../../lib/notify';
import { openDialog } from '../../../stores/dialog-store';
import { SettingsCard } from '../settings-card';
import { SettingsLoadError, SettingsLoading } from '../settings-states';
import { SettingsTable } from '../settings-table';
import { usePermissionLabels } from './permission-labels';

const apiTokensQueryKey = ['api-tokens'] as const;

function When({ value, never }: { value: string | null; never: string }) {
  const locale = currentLocaleTag();
  if (!value) return <>{never}</>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={formatAbsolute(date, locale)}>
      {formatRelative(date, locale)}
    </time>
  );
}

/** What a token may do, in words: the preset's name when it is one. */
function usePermissionSummary() {
  const { t } = useTranslation();
  const labels = usePermissionLabels();
  return (perm: Permissions) => {
    const granted = (Object.keys(labels) as (keyof Permissions)[]).filter((name) => perm[name]);
    if (granted.length === 1 && granted[0] === 'download') return t('settings.tokens.readOnly');
    if (granted.length === 1 && granted[0] === 'create') return t('settings.tokens.uploadOnly');
    return granted.map((name) => labels[name]).join(', ');
  };
}

/** Personal API tokens: the list with revoke buttons, and the dialog that makes new ones. */
export function ApiTokensCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: apiTokensQueryKey, queryFn: ({ signal }) => listApiTokens(signal), staleTime: 0 });
  const summary = usePermissionSummary();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });

  const revoke = (token: ApiToken) =>
    openDialog('confirm', {
      title: t('settings.tokens.revokeTitle'),
      message: t('settings.tokens.revokeMessage', { name: token.name }),
      confirmLabel: t('settings.tokens.revoke'),
      onConfirm: async () => {
        await revokeApiToken(token.id);
        refresh();
        void showSuccess(t('settings.tokens.revoked'));
      },
    });

  const never = t('settings.tokens.never');
  return (
    <SettingsCard
      title={t('settings.tokens.title')}
      description={t('settings.tokens.description')}
      actions={
        <button type="button" className="button button--primary" onClick={() => openDialog('api-token', { onCreated: refresh })}>
          {t('settings.tokens.create')}
        </button>
      }
    >
      {tokens.isPending ? (
        <SettingsLoading />
      ) : tokens.isError ? (
        <SettingsLoadError error={tokens.error} />
      ) : tokens.data.length === 0 ? (
        <p className="settings__empty">{t('settings.tokens.empty')}</p>
      ) : (
        <SettingsTable
          caption={t('settings.tokens.title')}
          columns={[t('settings.tokens.name'), t('settings.tokens.permissions'), t('settings.tokens.created'), t('settings.tokens.expires'), t('settings.tokens.lastUsed')]}
        >
          {tokens.data.map((token) => (
            <tr role="row" key={token.id}>
              <td role="cell" className="settings-table__primary" data-label={t('settings.tokens.name')} id={`api-token-${token.id}`}>
                {token.name}
              </td>
              <td role="cell" data-label={t('settings.tokens.permissions')}>
                {summary(token.perm)}
              </td>
              <td role="cell" data-label={t('settings.tokens.created')}>
                <When value={token.created} never={never} />
              </td>
              <td role="cell" data-label={t('settings.tokens.expires')}>
                <When value={token.expires} never={never} />
              </td>
              <td role="cell" data-label={t('settings.tokens.lastUsed')}>
                <When value={token.lastUsed} never={never} />
              </td>
              <td role="cell" className="settings-table__actions">
                <button
                  type="button"
                  className="icon-button settings-table__danger"
                  aria-label={t('settings.tokens.revoke')}
                  aria-describedby={`api-token-${token.id}`}
                  title={t('settings.tokens.revoke')}
                  onClick={() => revoke(token)}
                >
                  <Trash2 aria-hidden="true" size={18} />
                </button>
              </td>
            </tr>
          ))}
        </SettingsTable>
      )}
    </SettingsCard>
  );
}
