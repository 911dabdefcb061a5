import { useTranslation } from 'react-i18next';
import { CheckboxField } from './checkbox-field';
import { LanguageSelect } from './language-select';
import { PermissionsFieldset } from './permissions-fieldset';
import { RulesEditor } from './rules-editor';
import { withAdmin, type UserDraft } from './user-draft';
import './forms.css';

type CreateHomeOption = {
  checked: boolean;
  /** False when the server would not derive a home folder (createUserDir is off globally). */
  isAvailable: boolean;
  onChange: (checked: boolean) => void;
};

type UserFormProps = {
  idPrefix: string;
  /** `defaults` is the template for new users: no username, password, lock or rules. */
  variant: 'new' | 'edit' | 'defaults';
  draft: UserDraft;
  onChange: (draft: UserDraft) => void;
  enableExec: boolean;
  /** New users only. */
  createHome?: CreateHomeOption;
};

/** The fields of a user record (or of the defaults for new users). */
export function UserForm({ idPrefix, variant, draft, onChange, enableExec, createHome }: UserFormProps) {
  const { t } = useTranslation();
  const isTemplate = variant === 'defaults';
  const set = (change: Partial<UserDraft>) => onChange({ ...draft, ...change });
  const id = (name: string) => `${idPrefix}-${name}`;
  const isScopeGenerated = Boolean(createHome?.checked);

  return (
    <div className="user-form">
      {!isTemplate && (
        <div className="field">
          <label className="field__label" htmlFor={id('username')}>
            {t('settings.userForm.username')}
          </label>
          <input
            id={id('username')}
            className="input"
            required
            autoComplete="off"
            spellCheck={false}
            value={draft.username}
            onChange={(event) => set({ username: event.target.value })}
          />
        </div>
      )}
      {!isTemplate && (
        <div className="field">
          <label className="field__label" htmlFor={id('password')}>
            {t('settings.userForm.password')}
          </label>
          <input
            id={id('password')}
            className="input"
            type="password"
            autoComplete="new-password"
            required={variant === 'new'}
            placeholder={variant === 'edit' ? t('settings.userForm.passwordKeep') : undefined}
            value={draft.password}
            onChange={(event) => set({ password: event.target.value })}
          />
        </div>
      )}
      <div className="field">
        <label className="field__label" htmlFor={id('scope')}>
          {t('settings.userForm.scope')}
        </label>
        <input
          id={id('scope')}
          className="input"
          spellCheck={false}
          autoComplete="off"
          disabled={isScopeGenerated}
          placeholder={isScopeGenerated ? t('settings.userForm.scopeGenerated') : '/'}
          value={draft.scope}
          aria-describedby={id('scope-hint')}
          onChange={(event) => set({ scope: event.target.value })}
        />
        <p id={id('scope-hint')} className="form-hint">
          {t('settings.userForm.scopeHelp')}
        </p>
      </div>
      {variant === 'new' && createHome && (
        <CheckboxField
          id={id('create-home')}
          label={t('settings.userForm.createHome')}
          checked={createHome.checked}
          disabled={!createHome.isAvailable}
          hint={createHome.isAvailable ? undefined : t('settings.userForm.createHomeUnavailable')}
          onChange={createHome.onChange}
        />
      )}
      <div className="field">
        <label className="field__label" htmlFor={id('locale')}>
          {t('settings.userForm.language')}
        </label>
        <LanguageSelect id={id('locale')} value={draft.locale} onChange={(locale) => set({ locale })} />
      </div>
      {!isTemplate && (
        <CheckboxField
          id={id('lock-password')}
          label={t('settings.userForm.lockPassword')}
          checked={draft.lockPassword}
          disabled={draft.perm.admin}
          onChange={(lockPassword) => set({ lockPassword })}
        />
      )}
      <PermissionsFieldset
        idPrefix={idPrefix}
        perm={draft.perm}
        enableExec={enableExec}
        onAdminChange={(isAdmin) => onChange(withAdmin(draft, isAdmin))}
        onChange={(perm) => set({ perm })}
      />
      {enableExec && (
        <div className="field">
          <label className="field__label" htmlFor={id('commands')}>
            {t('settings.userForm.commands')}
          </label>
          <input
            id={id('commands')}
            className="input"
            spellCheck={false}
            autoComplete="off"
            placeholder="git ls du"
            value={draft.commandsText}
            aria-describedby={id('commands-hint')}
            onChange={(event) => set({ commandsText: event.target.value })}
          />
          <p id={id('commands-hint')} className="form-hint">
            {t('settings.userForm.commandsHelp')}
          </p>
        </div>
      )}
      {!isTemplate && <RulesEditor idPrefix={idPrefix} rules={draft.rules} onChange={(rules) => set({ rules })} />}
    </div>
  );
}
