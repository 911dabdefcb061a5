import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateUser } from '../../../api/users';
import { showError, showSuccess } from '../../../lib/notify';
import { useAppSettings } from '../../../stores/app-settings-store';
import { useSession } from '../../../stores/session-store';
import { SettingsCard } from '../settings-card';
import { useSaveAction } from '../use-save-action';

type Comparison = 'empty' | 'match' | 'mismatch';

/** Both fields empty says nothing yet; otherwise they either match or they don't. */
export function comparePasswords(password: string, confirmation: string): Comparison {
  if (password === '' && confirmation === '') return 'empty';
  return password === confirmation ? 'match' : 'mismatch';
}

export function PasswordCard() {
  const { t } = useTranslation();
  // The server asks for the current password only when it checks passwords itself.
  const needsCurrent = useAppSettings((state) => state.settings.AuthMethod === 'json');
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { isSaving, save: runSave } = useSaveAction();
  const comparison = comparePasswords(password, confirmation);
  const stateClass = comparison === 'match' ? ' input--match' : comparison === 'mismatch' ? ' input--mismatch' : '';

  const handleSave = async () => {
    if (password === '' || comparison !== 'match') return;
    const user = useSession.getState().user;
    if (!user) {
      void showError(new Error(t('settings.toasts.userNotSet')));
      return;
    }
    await runSave(async () => {
      // The answer carries a fresh token (older ones are revoked); the HTTP client adopts it.
      await updateUser(user.id, { password }, ['password'], needsCurrent ? current : undefined);
      setPassword('');
      setConfirmation('');
      setCurrent('');
      void showSuccess(t('settings.toasts.passwordUpdated'));
    });
  };

  return (
    <SettingsCard
      title={t('settings.password.title')}
      onSubmit={() => void handleSave()}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.password.submit')}
        </button>
      }
    >
      {needsCurrent && (
        <div className="field">
          <label className="field__label" htmlFor="profile-current-password">
            {t('settings.password.current')}
          </label>
          <input
            id="profile-current-password"
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
          />
        </div>
      )}
      <div className="field">
        <label className="field__label" htmlFor="profile-new-password">
          {t('settings.password.new')}
        </label>
        <input
          id="profile-new-password"
          className={`input${stateClass}`}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          aria-describedby="profile-password-comparison"
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="profile-confirm-password">
          {t('settings.password.confirm')}
        </label>
        <input
          id="profile-confirm-password"
          className={`input${stateClass}`}
          type="password"
          autoComplete="new-password"
          required
          value={confirmation}
          aria-invalid={comparison === 'mismatch'}
          aria-describedby="profile-password-comparison"
          onChange={(event) => setConfirmation(event.target.value)}
        />
      </div>
      <p id="profile-password-comparison" className={`password-comparison password-comparison--${comparison}`} aria-live="polite">
        {comparison === 'match' ? t('settings.password.match') : comparison === 'mismatch' ? t('settings.password.mismatch') : ''}
      </p>
    </SettingsCard>
  );
}
