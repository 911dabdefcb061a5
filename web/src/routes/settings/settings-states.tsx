import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../../components/errors/error-screen';
import { errorCodeOf } from '../../api/api-error';

export function SettingsLoading() {
  const { t } = useTranslation();
  return (
    <div className="settings__loading">
      <div className="spinner" role="status" aria-label={t('common.loading')} />
    </div>
  );
}

/** A screen whose data could not be loaded shows the error page for the failure's code. */
export function SettingsLoadError({ error }: { error: unknown }) {
  return <ErrorScreen code={errorCodeOf(error)} />;
}
