import { CircleAlert, CloudOff, Lock, MapPinOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import './error-screen.css';

/** The message and icon for a failed request's status (spec section 8: 0, 403, 404, else internal). */
export function ErrorScreen({ status }: { status: number }) {
  const { t } = useTranslation();
  const { Icon, message } =
    status === 0
      ? { Icon: CloudOff, message: t('errors.connection') }
      : status === 403
        ? { Icon: Lock, message: t('errors.forbidden') }
        : status === 404
          ? { Icon: MapPinOff, message: t('errors.notFound') }
          : { Icon: CircleAlert, message: t('errors.internal') };
  return (
    <div className="error-screen" role="alert" data-status={status}>
      <Icon className="error-screen__icon" aria-hidden="true" size={72} strokeWidth={1.5} />
      <h2 className="error-screen__message">{message}</h2>
    </div>
  );
}
