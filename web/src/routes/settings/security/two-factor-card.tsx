import type { TwoFactorEnrolment } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/api-error';
import { confirmTwoFactor, disableTwoFactor, getTwoFactorStatus, startTwoFactor } from '../../../api/two-factor';
import { showError, showSuccess } from '../../../lib/notify';
import { SettingsCard } from '../settings-card';
import { SettingsLoadError, SettingsLoading } from '../settings-states';
import { useSaveAction } from '../use-save-action';
import { EnrolmentSecret, RecoveryCodeList } from './two-factor-parts';

const twoFactorQueryKey = ['two-factor'] as const;

/**
 * Two-factor on the profile: set it up (a QR code and the key as text, turned on by a first
 * code), the recovery codes shown once, and turning it off with a code or a recovery code.
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: twoFactorQueryKey, queryFn: ({ signal }) => getTwoFactorStatus(signal), staleTime: 0 });
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [code, setCode] = useState('');
  const { isSaving, save } = useSaveAction();

  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey });
  // A wrong code is said in the toast in words, not as a status line.
  const withCodeErrors = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (isApiError(error) && error.code === 'forbidden') void showError(new Error(t('settings.security.wrongCode')));
      else throw error;
    }
  };

  const begin = () =>
    void save(async () => {
      setCode('');
      setEnrolment(await startTwoFactor());
    });
  const confirm = () =>
    void save(() =>
      withCodeErrors(async () => {
        const codes = await confirmTwoFactor(code.trim());
        setEnrolment(undefined);
        setCode('');
        setRecoveryCodes(codes);
        await refresh();
      }),
    );
  const disable = () =>
    void save(() =>
      withCodeErrors(async () => {
        await disableTwoFactor(code.trim());
        setCode('');
        await refresh();
        void showSuccess(t('settings.security.turnedOff'));
      }),
    );

  const title = t('settings.security.title');
  if (status.isPending) return <SettingsLoading />;
  if (status.isError) return <SettingsLoadError error={status.error} />;
  const { enabled, required, recoveryCodesLeft } = status.data;

  if (recoveryCodes) {
    return (
      <SettingsCard
        title={title}
        actions={
          <button type="button" className="button button--primary" onClick={() => setRecoveryCodes(undefined)}>
            {t('settings.security.done')}
          </button>
        }
      >
        <RecoveryCodeList codes={recoveryCodes} title={t('settings.security.recoveryTitle')} help={t('settings.security.recoveryHelp')} />
      </SettingsCard>
    );
  }

  if (enrolment) {
    return (
      <SettingsCard
        title={title}
        description={t('settings.security.scan')}
        onSubmit={confirm}
        actions={
          <>
            <button type="button" className="button button--ghost" onClick={() => setEnrolment(undefined)}>
              {t('settings.actions.cancel')}
            </button>
            <button type="submit" className="button button--primary" disabled={isSaving}>
              {t('settings.security.turnOn')}
            </button>
          </>
        }
      >
        <EnrolmentSecret enrolment={enrolment} qrLabel={t('settings.security.qrLabel')} keyLabel={t('settings.security.key')} />
        <CodeField id="two-factor-code" label={t('settings.security.appCode')} value={code} onChange={setCode} />
      </SettingsCard>
    );
  }

  if (!enabled) {
    return (
      <SettingsCard
        title={title}
        description={t('settings.security.description')}
        actions={
          <button type="button" className="button button--primary" onClick={begin} disabled={isSaving}>
            {t('settings.security.setUp')}
          </button>
        }
      >
        <p>{t('settings.security.statusOff')}</p>
        {required && <p className="form-hint">{t('settings.security.required')}</p>}
      </SettingsCard>
    );
  }

  return (
    <SettingsCard
      title={title}
      description={t('settings.security.description')}
      onSubmit={required ? undefined : disable}
      actions={
        required ? undefined : (
          <button type="submit" className="button button--danger" disabled={isSaving}>
            {t('settings.security.turnOff')}
          </button>
        )
      }
    >
      <p>{t('settings.security.statusOn', { left: recoveryCodesLeft })}</p>
      {required ? (
        <p className="form-hint">{t('settings.security.required')}</p>
      ) : (
        <CodeField id="two-factor-off-code" label={t('settings.security.offCode')} value={code} onChange={setCode} recovery />
      )}
    </SettingsCard>
  );
}

function CodeField({ id, label, value, onChange, recovery }: { id: string; label: string; value: string; onChange: (value: string) => void; recovery?: boolean }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input input--mono two-factor__code"
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        spellCheck={false}
        required
        maxLength={recovery ? 20 : 6}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
