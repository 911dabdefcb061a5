import { useQuery, useQueryClient } from '../../../lib/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getTwoFactorPolicy, getUserTwoFactor, resetUserTwoFactor, setTwoFactorPolicy, setUserTwoFactorRequired } from '../../../api/two-factor';
import { CheckboxField } from '../../../components/forms/checkbox-field';
import { showSuccess } from '../../../lib/notify';
import { openDialog } from '../../../stores/dialog-store';
import { SettingsCard } from '../settings-card';
import { SettingsLoadError, SettingsLoading } from '../settings-states';
import { useSaveAction } from '../use-save-action';

/** On the user form: whether this user has two-factor, requiring it, and resetting it. */
export function UserTwoFactorCard({ userId, username }: { userId: number; username: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queryKey = ['two-factor', 'user', userId];
  const state = useQuery({ queryKey, queryFn: ({ signal }) => getUserTwoFactor(userId, signal), staleTime: 0 });
  const { isSaving, save } = useSaveAction();
  if (state.isPending) return <SettingsLoading />;
  if (state.isError) return <SettingsLoadError error={state.error} />;
  const { enabled, required, requiredGlobally } = state.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey });

  const setRequired = (value: boolean) =>
    void save(async () => {
      await setUserTwoFactorRequired(userId, value);
      await refresh();
      void showSuccess(t('settings.toasts.userUpdated'));
    });
  const reset = () =>
    openDialog('confirm', {
      title: t('settings.twoFactorAdmin.reset'),
      message: t('settings.twoFactorAdmin.resetMessage', { username }),
      confirmLabel: t('settings.twoFactorAdmin.reset'),
      onConfirm: async () => {
        await resetUserTwoFactor(userId);
        await refresh();
        void showSuccess(t('settings.twoFactorAdmin.resetDone'));
      },
    });

  return (
    <SettingsCard
      title={t('settings.security.title')}
      actions={
        enabled ? (
          <button type="button" className="button button--danger" onClick={reset}>
            {t('settings.twoFactorAdmin.reset')}
          </button>
        ) : undefined
      }
    >
      <p>{enabled ? t('settings.twoFactorAdmin.userOn') : t('settings.twoFactorAdmin.userOff')}</p>
      <CheckboxField
        id={`user-${userId}-two-factor-required`}
        label={t('settings.twoFactorAdmin.requireUser')}
        checked={required || requiredGlobally}
        disabled={isSaving || requiredGlobally}
        hint={requiredGlobally ? t('settings.twoFactorAdmin.requiredForAll') : undefined}
        onChange={setRequired}
      />
    </SettingsCard>
  );
}

/** On the global settings: two-factor for every user. */
export function TwoFactorPolicyCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queryKey = ['two-factor', 'policy'];
  const policy = useQuery({ queryKey, queryFn: ({ signal }) => getTwoFactorPolicy(signal), staleTime: 0 });
  const [draft, setDraft] = useState<boolean>();
  const { isSaving, save } = useSaveAction();
  if (policy.isPending) return <SettingsLoading />;
  if (policy.isError) return <SettingsLoadError error={policy.error} />;
  const value = draft ?? policy.data.requiredForEveryone;
  const submit = () =>
    void save(async () => {
      queryClient.setQueryData(queryKey, await setTwoFactorPolicy({ requiredForEveryone: value }));
      setDraft(undefined);
      void showSuccess(t('settings.toasts.settingsUpdated'));
    });
  return (
    <SettingsCard
      title={t('settings.security.title')}
      onSubmit={submit}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <CheckboxField id="two-factor-required-for-all" label={t('settings.twoFactorAdmin.requireAll')} hint={t('settings.twoFactorAdmin.requireAllHelp')} checked={value} onChange={setDraft} />
    </SettingsCard>
  );
}
