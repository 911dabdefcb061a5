import { useTranslation } from 'react-i18next';
import { SettingsPage } from './settings-page';

export function GlobalSettingsScreen() {
  const { t } = useTranslation();
  return <SettingsPage title={t('settings.global')} />;
}
