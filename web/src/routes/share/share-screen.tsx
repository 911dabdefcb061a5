import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../use-page-title';

/** Public share page (first version): anyone with the link reaches it without logging in. */
export function ShareScreen() {
  const { t } = useTranslation();
  usePageTitle(t('titles.share'));
  return (
    <div className="page">
      <h1 className="page__title">{t('share.title')}</h1>
    </div>
  );
}
