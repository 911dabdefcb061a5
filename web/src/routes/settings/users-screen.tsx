import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SettingsPage } from './settings-page';

export function UsersScreen() {
  const { t } = useTranslation();
  return (
    <SettingsPage title={t('settings.users')}>
      <Link className="button button--primary" to="/settings/users/new">
        {t('settings.newUser')}
      </Link>
    </SettingsPage>
  );
}
