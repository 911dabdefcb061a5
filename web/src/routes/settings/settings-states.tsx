import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../../components/errors/error-screen';
import { isApiError } from '../../api/api-error';

export function SettingsLoading() {
  const { t } = useTranslation();
  return (
    <div className="settings__loading">
      <div className="spinner" role="status" aria-label={t('common.loading')} />
    </div>
  );
}

/** A screen whose data could not be loaded shows the error page for the HTTP status. */
export function SettingsLoadError({ error }: { error: unknown }) {
  return <ErrorScreen status={isApiError(error) ? error.status : 500} />;
}
