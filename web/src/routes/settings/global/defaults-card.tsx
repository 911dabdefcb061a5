import { useTranslation } from 'react-i18next';
import { UserForm } from '../../../components/forms/user-form';
import type { UserDraft } from '../../../components/forms/user-draft';
import { SettingsCard } from '../settings-card';

type DefaultsCardProps = {
  defaults: UserDraft;
  enableExec: boolean;
  onChange: (defaults: UserDraft) => void;
  onSave: () => void;
  isSaving: boolean;
};

/** The template new users start from (sign-up, proxy logins and the new-user form). */
export function DefaultsCard({ defaults, enableExec, onChange, onSave, isSaving }: DefaultsCardProps) {
  const { t } = useTranslation();
  return (
    <SettingsCard
      title={t('settings.defaults.title')}
      description={t('settings.defaults.help')}
      onSubmit={onSave}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <UserForm idPrefix="defaults" variant="defaults" draft={defaults} onChange={onChange} enableExec={enableExec} />
    </SettingsCard>
  );
}
