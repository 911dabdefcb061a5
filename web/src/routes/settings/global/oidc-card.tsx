import type { OidcSettings, OidcSettingsUpdate } from '@burrow/protocol';
import { OidcPaths } from '@burrow/protocol/oidc-paths';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getOidcSettings, updateOidcSettings } from '../../../api/oidc';
import { CheckboxField } from '../../../components/forms/checkbox-field';
import { showSuccess } from '../../../lib/notify';
import { useAppSettings } from '../../../stores/app-settings-store';
import { SettingsCard } from '../settings-card';
import { useSaveAction } from '../use-save-action';

const oidcQueryKey = ['settings', 'oidc'] as const;

type TextField = 'issuer' | 'clientId' | 'scopes' | 'usernameClaim' | 'groupsClaim' | 'adminGroup' | 'buttonLabel' | 'breakGlassAdmin';

/** Single sign-on through an OpenID Connect provider: loaded and saved on its own endpoint. */
export function OidcCard() {
  const query = useQuery({ queryKey: oidcQueryKey, queryFn: ({ signal }) => getOidcSettings(signal), staleTime: 0 });
  if (!query.data) return null;
  return <OidcForm initial={query.data} />;
}

function OidcForm({ initial }: { initial: OidcSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const baseURL = useAppSettings((state) => state.settings.BaseURL);
  const patchSettings = useAppSettings((state) => state.patchSettings);
  const { isSaving, save } = useSaveAction();
  const [draft, setDraft] = useState(initial);
  // The secret is write-only: empty means "keep the stored one" unless removal is asked for.
  const [secret, setSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const set = (change: Partial<OidcSettings>) => setDraft((current) => ({ ...current, ...change }));
  const isLocked = (field: string) => draft.locked.includes(field);
  const redirectUri = `${window.location.origin}${baseURL}${OidcPaths.callback}`;

  const handleSave = () =>
    void save(async () => {
      const { clientSecretSet: _set, locked: _locked, ...fields } = draft;
      const body: OidcSettingsUpdate = { ...fields };
      if (!isLocked('clientSecret') && (secret || removeSecret)) body.clientSecret = removeSecret ? '' : secret;
      const saved = await updateOidcSettings(body);
      queryClient.setQueryData(oidcQueryKey, saved);
      setDraft(saved);
      setSecret('');
      setRemoveSecret(false);
      const enabled = saved.enabled && Boolean(saved.issuer && saved.clientId);
      patchSettings({ OIDC: { Enabled: enabled, ButtonLabel: saved.buttonLabel, PasswordLogin: !enabled || saved.passwordLogin } });
      void showSuccess(t('settings.toasts.settingsUpdated'));
    });

  const text = (field: TextField, label: string, help: string, options: { type?: string; placeholder?: string; required?: boolean } = {}) => {
    const id = `oidc-${field}`;
    return (
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          className="input"
          type={options.type ?? 'text'}
          value={draft[field]}
          placeholder={options.placeholder}
          required={options.required}
          readOnly={isLocked(field)}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => set({ [field]: event.target.value })}
        />
        <p id={`${id}-hint`} className="form-hint">
          {isLocked(field) ? t('settings.oidc.locked') : help}
        </p>
      </div>
    );
  };

  return (
    <SettingsCard
      title={t('settings.oidc.title')}
      description={t('settings.oidc.description', { redirectUri })}
      onSubmit={handleSave}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <CheckboxField id="oidc-enabled" label={t('settings.oidc.enabled')} checked={draft.enabled} disabled={isLocked('enabled')} onChange={(enabled) => set({ enabled })} />
      <div className="settings-grid">
        {text('issuer', t('settings.oidc.issuer'), t('settings.oidc.issuerHelp'), { type: 'url', placeholder: 'https://sso.example.com/realms/main', required: draft.enabled })}
        {text('clientId', t('settings.oidc.clientId'), t('settings.oidc.clientIdHelp'), { required: draft.enabled })}
        <div className="field">
          <label className="field__label" htmlFor="oidc-client-secret">
            {t('settings.oidc.clientSecret')}
          </label>
          <input
            id="oidc-client-secret"
            className="input"
            type="password"
            autoComplete="new-password"
            value={secret}
            readOnly={isLocked('clientSecret')}
            disabled={removeSecret}
            aria-describedby="oidc-client-secret-hint"
            onChange={(event) => setSecret(event.target.value)}
          />
          <p id="oidc-client-secret-hint" className="form-hint">
            {isLocked('clientSecret') ? t('settings.oidc.locked') : draft.clientSecretSet ? t('settings.oidc.clientSecretSet') : t('settings.oidc.clientSecretHelp')}
          </p>
          {draft.clientSecretSet && !isLocked('clientSecret') && (
            <CheckboxField id="oidc-remove-secret" label={t('settings.oidc.clientSecretRemove')} checked={removeSecret} onChange={setRemoveSecret} />
          )}
        </div>
        {text('scopes', t('settings.oidc.scopes'), t('settings.oidc.scopesHelp'))}
        {text('usernameClaim', t('settings.oidc.usernameClaim'), t('settings.oidc.usernameClaimHelp'))}
        {text('groupsClaim', t('settings.oidc.groupsClaim'), t('settings.oidc.groupsClaimHelp'))}
        {text('adminGroup', t('settings.oidc.adminGroup'), t('settings.oidc.adminGroupHelp'))}
        {text('buttonLabel', t('settings.oidc.buttonLabel'), t('settings.oidc.buttonLabelHelp'))}
      </div>
      <CheckboxField
        id="oidc-auto-create"
        label={t('settings.oidc.autoCreate')}
        hint={t('settings.oidc.autoCreateHelp')}
        checked={draft.autoCreate}
        disabled={isLocked('autoCreate')}
        onChange={(autoCreate) => set({ autoCreate })}
      />
      <CheckboxField
        id="oidc-password-login"
        label={t('settings.oidc.passwordLogin')}
        hint={t('settings.oidc.passwordLoginHelp')}
        checked={draft.passwordLogin}
        disabled={isLocked('passwordLogin')}
        onChange={(passwordLogin) => set({ passwordLogin })}
      />
      <div className="settings-grid">{text('breakGlassAdmin', t('settings.oidc.breakGlassAdmin'), t('settings.oidc.breakGlassAdminHelp'), { required: !draft.passwordLogin })}</div>
    </SettingsCard>
  );
}
