import type { ErrorCode } from '@burrow/protocol';
import { ErrorCodes } from '@burrow/protocol/errors';
import { CircleAlert, CloudOff, Lock, MapPinOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import './error-screen.css';

/** What went wrong: a code of the protocol's table, or `no_connection` when no answer came. */
export type ErrorScreenCode = ErrorCode | 'no_connection';

/** The message and icon for a failed request (spec section 8: no connection, forbidden, not found, else internal). */
export function ErrorScreen({ code }: { code: ErrorScreenCode }) {
  const { t } = useTranslation();
  const { Icon, message } =
    code === 'no_connection'
      ? { Icon: CloudOff, message: t('errors.connection') }
      : code === 'forbidden'
        ? { Icon: Lock, message: t('errors.forbidden') }
        : code === 'not_found'
          ? { Icon: MapPinOff, message: t('errors.notFound') }
          : { Icon: CircleAlert, message: t('errors.internal') };
  return (
    <div className="error-screen" role="alert" data-code={code} data-status={code === 'no_connection' ? 0 : ErrorCodes[code]}>
      <Icon className="error-screen__icon" aria-hidden="true" size={72} strokeWidth={1.5} />
      <h2 className="error-screen__message">{message}</h2>
    </div>
  );
}
