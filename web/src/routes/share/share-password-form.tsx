import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasswordState } from './use-public-share';
import './share-password-form.css';

/** The prompt a protected link answers with: one password field, submitted by button or Enter. */
export function SharePasswordForm({ state }: { state: PasswordState }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const titleId = useId();
  const messageId = useId();
  const message = state.isThrottled ? t('share.password.throttled') : state.isWrong ? t('share.password.wrong') : '';

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (state.isChecking) return;
    state.submit(password);
  };

  return (
    <div className="share-password">
      <form className="share-password__card card" aria-labelledby={titleId} onSubmit={handleSubmit} noValidate>
        <KeyRound className="share-password__icon" aria-hidden="true" size={36} strokeWidth={1.6} />
        <h1 id={titleId} className="share-password__title">
          {t('share.password.title')}
        </h1>
        <p className="share-password__description">{t('share.password.description')}</p>
        {message && (
          <p id={messageId} className="share-password__error" role="alert">
            {message}
          </p>
        )}
        <label className="field">
          <span className="field__label">{t('share.password.label')}</span>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            // The prompt is the only thing on the page: typing can start at once.
            autoFocus
            value={password}
            aria-invalid={state.isWrong || undefined}
            aria-describedby={message ? messageId : undefined}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--primary button--block" disabled={state.isChecking}>
          {t('share.password.submit')}
        </button>
      </form>
    </div>
  );
}
