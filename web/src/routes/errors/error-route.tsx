import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../../components/errors/error-screen';
import { usePageTitle } from '../use-page-title';

/** The /403, /404 and /500 pages. */
export function ErrorRoute({ status }: { status: 403 | 404 | 500 }) {
  const { t } = useTranslation();
  const title = status === 403 ? t('titles.forbidden') : status === 404 ? t('titles.notFound') : t('titles.internal');
  usePageTitle(title);
  return (
    <div className="page page--centered">
      <ErrorScreen status={status} />
    </div>
  );
}
