import { useTranslation } from 'react-i18next';
import { SettingsPage } from './settings-page';

export function SharesScreen() {
  const { t } = useTranslation();
  return <SettingsPage title={t('settings.shares')} />;
}
