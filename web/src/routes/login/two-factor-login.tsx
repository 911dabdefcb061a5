import type { TwoFactorEnrolment } from '@burrow/protocol';
import type { TwoFactorLoginState } from '@burrow/protocol/two-factor-constants';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { completeTwoFactorLogin, confirmLoginEnrolment, startLoginEnrolment } from '../../api/two-factor';
import { setSessionToken } from '../../stores/session-store';
import { EnrolmentSecret, RecoveryCodeList } from '../settings/security/two-factor-parts';

export type TwoFactorChallenge = { state: TwoFactorLoginState; challenge: string };

type TwoFactorLoginProps = TwoFactorChallenge & {
  /** Back to the password (the challenge expired, or the user wants to). */
  onCancel: (message?: string) => void;
};

/**
 * The second step of a login: a code from the authenticator app (or a recovery code), or, for a
 * user required to use two-factor who has not yet, setting it up right here.
 */
export function TwoFactorLogin({ state, challenge, onCancel }: TwoFactorLoginProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [enrolled, setEnrolled] = useState<{ token: string; recoveryCodes: string[] }>();

  const explain = (failure: unknown) => {
    if (isApiError(failure) && failure.code === 'unauthorized') onCancel(t('login.twoFactor.expired'));
    else if (isApiError(failure) && failure.code === 'forbidden') setError(t('login.twoFactor.wrongCode'));
    else setError(failure instanceof Error ? failure.message : String(failure));
  };

  useEffect(() => {
    if (state !== 'enrol') return;
    startLoginEnrolment(challenge).then(setEnrolment, explain);
    // Once per challenge.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, challenge]);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy || !code.trim()) return;
    setBusy(true);
    setError('');
    try {
      if (state === 'required') setSessionToken(await completeTwoFactorLogin(challenge, code.trim()));
      else setEnrolled(await confirmLoginEnrolment(challenge, code.trim()));
    } catch (failure) {
      setCode('');
      explain(failure);
    } finally {
      setBusy(false);
    }
  };

  if (enrolled) {
    return (
      <div className="login__two-factor">
        <RecoveryCodeList codes={enrolled.recoveryCodes} title={t('login.twoFactor.recoveryTitle')} help={t('login.twoFactor.recoveryHelp')} />
        <button type="button" className="button button--primary button--block" onClick={() => setSessionToken(enrolled.token)}>
          {t('login.twoFactor.continue')}
        </button>
      </div>
    );
  }

  return (
    <div className="login__two-factor">
      <p className="login__subtitle">{state === 'required' ? t('login.twoFactor.prompt') : t('login.twoFactor.enrolPrompt')}</p>
      {error && (
        <p id="two-factor-error" className="login__error" role="alert">
          {error}
        </p>
      )}
      {enrolment && <EnrolmentSecret enrolment={enrolment} qrLabel={t('login.twoFactor.qrLabel')} keyLabel={t('login.twoFactor.key')} />}
      <form className="login__two-factor-form" onSubmit={(event) => void handleSubmit(event)} noValidate aria-describedby={error ? 'two-factor-error' : undefined}>
        <label className="field">
          <span className="field__label">{t('login.twoFactor.code')}</span>
          <input
            className="input two-factor__code"
            name="code"
            autoComplete="one-time-code"
            inputMode={state === 'required' ? 'text' : 'numeric'}
            autoCapitalize="off"
            spellCheck={false}
            autoFocus
            maxLength={20}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--primary button--block" disabled={isBusy || (state === 'enrol' && !enrolment)}>
          {t('login.twoFactor.verify')}
        </button>
      </form>
      <button type="button" className="login__link" onClick={() => onCancel()}>
        {t('login.twoFactor.back')}
      </button>
    </div>
  );
}
