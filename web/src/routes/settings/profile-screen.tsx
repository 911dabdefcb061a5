import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session-store';
import { PasswordCard } from './profile/password-card';
import { PreferencesCard } from './profile/preferences-card';
import { SettingsPage } from './settings-page';

/** Preferences for everyone; the password card unless an admin locked the password. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  return (
    <SettingsPage title={t('settings.profile')}>
      {user && (
        <div className="settings__cards">
          <PreferencesCard key={user.id} user={user} />
          {!user.lockPassword && <PasswordCard />}
        </div>
      )}
    </SettingsPage>
  );
}
