import type { Share } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../../lib/query';
import { Copy, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { deleteShare, listShares, shareLinkUrl } from '../../api/shares';
import { listUsers } from '../../api/users';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatAbsolute, formatRelative } from '../../lib/format-date';
import { showError, showSuccess } from '../../lib/notify';
import { useAppSettings } from '../../stores/app-settings-store';
import { useSession } from '../../stores/session-store';
import { copyLink } from '../../components/share/copy-link';
import { sharesQueryKey, usersQueryKey } from './query-keys';
import { SettingsLoadError, SettingsLoading } from './settings-states';
import { SettingsPage } from './settings-page';
import { SettingsTable } from './settings-table';
import { FileRequestMark } from '../../components/share/file-request-mark';

type SharesTableProps = {
  shares: Share[];
  /** Owner names by user id; present for admins, who see everyone's links. */
  usernames?: Map<number, string>;
  onCopy: (share: Share) => void;
  onDelete: (share: Share) => void;
};

function SharesTable({ shares, usernames, onCopy, onDelete }: SharesTableProps) {
  const { t } = useTranslation();
  const baseURL = useAppSettings((state) => state.settings.BaseURL);
  const locale = currentLocaleTag();
  return (
    <SettingsTable caption={t('settings.shares')} columns={[t('settings.sharesList.path'), t('settings.sharesList.expiry'), ...(usernames ? [t('settings.userForm.username')] : [])]}>
      {shares.map((share) => {
        const expiry = share.expire === 0 ? undefined : new Date(share.expire * 1000);
        const describedBy = `share-${share.hash}-path`;
        return (
          <tr role="row" key={share.hash}>
            <td role="cell" className="settings-table__primary" data-label={t('settings.sharesList.path')}>
              <a id={describedBy} className="settings-table__link" href={shareLinkUrl(share.hash, baseURL)} target="_blank" rel="noopener noreferrer">
                {share.path}
              </a>
              <FileRequestMark link={share} locale={locale} />
            </td>
            <td role="cell" data-label={t('settings.sharesList.expiry')}>
              {expiry ? (
                <time dateTime={expiry.toISOString()} title={formatAbsolute(expiry, locale)}>
                  {formatRelative(expiry, locale)}
                </time>
              ) : (
                t('settings.sharesList.permanent')
              )}
            </td>
            {usernames && <td role="cell" data-label={t('settings.userForm.username')}>{share.username || usernames.get(share.userID) || `#${share.userID}`}</td>}
            <td role="cell" className="settings-table__actions">
              <button
                type="button"
                className="icon-button"
                aria-label={t('settings.sharesList.copy')}
                aria-describedby={describedBy}
                title={t('settings.sharesList.copy')}
                onClick={() => onCopy(share)}
              >
                <Copy aria-hidden="true" size={18} />
              </button>
              <button
                type="button"
                className="icon-button settings-table__danger"
                aria-label={t('settings.actions.delete')}
                aria-describedby={describedBy}
                title={t('settings.actions.delete')}
                onClick={() => onDelete(share)}
              >
                <Trash2 aria-hidden="true" size={18} />
              </button>
            </td>
          </tr>
        );
      })}
    </SettingsTable>
  );
}

/** Every link the user made (for admins: everyone's), with copy and delete per row. */
export function SharesScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isAdmin = useSession((state) => state.user?.perm.admin ?? false);
  const baseURL = useAppSettings((state) => state.settings.BaseURL);
  const shares = useQuery({ queryKey: sharesQueryKey, queryFn: ({ signal }) => listShares(signal), staleTime: 0 });
  // Admins see whose link each one is: names come from the user list.
  const users = useQuery({ queryKey: usersQueryKey, queryFn: ({ signal }) => listUsers(signal), enabled: isAdmin });
  const usernames = isAdmin ? new Map((users.data ?? []).map((user) => [user.id, user.username])) : undefined;

  const handleCopy = (share: Share) => copyLink(shareLinkUrl(share.hash, baseURL), t('settings.toasts.linkCopied'));

  const handleDelete = async (share: Share) => {
    try {
      await deleteShare(share.hash);
      queryClient.setQueryData<Share[]>(sharesQueryKey, (current) => current?.filter((item) => item.hash !== share.hash));
      // The pressed button left with its row; the heading keeps keyboard users on this screen.
      document.getElementById('settings-heading')?.focus();
      void showSuccess(t('settings.toasts.shareDeleted'));
    } catch (error) {
      void showError(error);
    }
  };

  let content;
  if (shares.isPending) content = <SettingsLoading />;
  else if (shares.isError) content = <SettingsLoadError error={shares.error} />;
  else if (shares.data.length === 0) content = <p className="settings__empty">{t('settings.sharesList.empty')}</p>;
  else content = <SharesTable shares={shares.data} usernames={usernames} onCopy={(share) => void handleCopy(share)} onDelete={(share) => void handleDelete(share)} />;
  return <SettingsPage title={t('settings.shares')}>{content}</SettingsPage>;
}
