import { useTranslation } from 'react-i18next';
import { useAppSettings } from '../../stores/app-settings-store';
import { useSession } from '../../stores/session-store';
import { PasswordCard } from './profile/password-card';
import { PreferencesCard } from './profile/preferences-card';
import { ApiTokensCard } from './security/api-tokens-card';
import { TwoFactorCard } from './security/two-factor-card';
import { SettingsPage } from './settings-page';

/**
 * Preferences for everyone; the password card unless an admin locked the password; then security:
 * two-factor (when Burrow checks passwords itself) and API tokens.
 */
export function ProfileScreen() {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  const checksPasswords = useAppSettings((state) => state.settings.AuthMethod === 'json');
  return (
    <SettingsPage title={t('settings.profile')}>
      {user && (
        <div className="settings__cards">
          <PreferencesCard key={user.id} user={user} />
          {!user.lockPassword && <PasswordCard />}
          {checksPasswords && <TwoFactorCard />}
          <ApiTokensCard />
        </div>
      )}
    </SettingsPage>
  );
}
