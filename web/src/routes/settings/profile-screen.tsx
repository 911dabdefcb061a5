import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session-store';
import { SettingsPage } from './settings-page';

export function ProfileScreen() {
  const { t } = useTranslation();
  const username = useSession((state) => state.user?.username ?? '');
  return (
    <SettingsPage title={t('settings.profile')}>
      <p className="settings__lead">{t('settings.signedInAs', { username })}</p>
    </SettingsPage>
  );
}
