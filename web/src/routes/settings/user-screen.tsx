import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SettingsPage } from './settings-page';

/** /settings/users/new and /settings/users/{id}. */
export function UserScreen() {
  const { t } = useTranslation();
  const { id } = useParams();
  return <SettingsPage title={id === undefined ? t('settings.newUser') : t('settings.editUser')} />;
}
