import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../../components/errors/error-screen';
import { usePageTitle } from '../use-page-title';

/** The /403, /404 and /500 pages. */
export function ErrorRoute({ code }: { code: 'forbidden' | 'not_found' | 'internal' }) {
  const { t } = useTranslation();
  const title = code === 'forbidden' ? t('titles.forbidden') : code === 'not_found' ? t('titles.notFound') : t('titles.internal');
  usePageTitle(title);
  return (
    <div className="page page--centered">
      <ErrorScreen code={code} />
    </div>
  );
}
