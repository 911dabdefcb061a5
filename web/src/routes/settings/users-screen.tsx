import type { User } from '@burrow/protocol';
import { useQuery } from '../../lib/query';
import { Check, Pencil, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { listUsers } from '../../api/users';
import { usersQueryKey } from './query-keys';
import { SettingsLoadError, SettingsLoading } from './settings-states';
import { SettingsPage } from './settings-page';
import { SettingsTable } from './settings-table';

function UsersTable({ users }: { users: User[] }) {
  const { t } = useTranslation();
  return (
    <SettingsTable caption={t('settings.users')} columns={[t('settings.userForm.username'), t('settings.permissions.admin'), t('settings.userForm.scope')]}>
      {users.map((user) => (
        <tr role="row" key={user.id}>
          <td role="cell" className="settings-table__primary" data-label={t('settings.userForm.username')}>
            {user.username}
          </td>
          <td role="cell" data-label={t('settings.permissions.admin')}>
            {user.perm.admin ? (
              <>
                <Check aria-hidden="true" size={18} className="settings-table__yes" />
                <span className="visually-hidden">{t('settings.usersList.yes')}</span>
              </>
            ) : (
              <>
                <span aria-hidden="true" className="settings-table__no">
                  —
                </span>
                <span className="visually-hidden">{t('settings.usersList.no')}</span>
              </>
            )}
          </td>
          <td role="cell" className="settings-table__mono" data-label={t('settings.userForm.scope')}>
            {user.scope}
          </td>
          <td role="cell" className="settings-table__actions">
            <Link
              className="icon-button"
              to={`/settings/users/${user.id}`}
              aria-label={t('settings.usersList.edit', { username: user.username })}
              title={t('settings.usersList.edit', { username: user.username })}
            >
              <Pencil aria-hidden="true" size={18} />
            </Link>
          </td>
        </tr>
      ))}
    </SettingsTable>
  );
}

/** Every account with its admin flag and scope; New opens an empty user form. */
export function UsersScreen() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: usersQueryKey, queryFn: ({ signal }) => listUsers(signal), staleTime: 0 });
  return (
    <SettingsPage
      title={t('settings.users')}
      actions={
        <Link className="button button--primary" to="/settings/users/new">
          <Plus aria-hidden="true" size={18} />
          {t('settings.newUser')}
        </Link>
      }
    >
      {query.isPending ? <SettingsLoading /> : query.isError ? <SettingsLoadError error={query.error} /> : <UsersTable users={query.data} />}
    </SettingsPage>
  );
}
