import type { Settings } from '@burrow/protocol';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../../components/forms/checkbox-field';
import { RulesEditor } from '../../../components/forms/rules-editor';
import { SettingsCard } from '../settings-card';
import { ChunkSizeInput } from './chunk-size-input';
import type { SettingsDraft } from './settings-draft';

type GlobalCardProps = {
  draft: SettingsDraft;
  onChange: (change: (draft: SettingsDraft) => SettingsDraft) => void;
  onSave: () => void;
  isSaving: boolean;
};

/** Whole numbers typed into a number field; an empty or partial entry is NaN and fails validation. */
function wholeNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

export function GlobalCard({ draft, onChange, onSave, isSaving }: GlobalCardProps) {
  const { t } = useTranslation();
  const { settings } = draft;
  const setSettings = (change: Partial<Settings>) => onChange((current) => ({ ...current, settings: { ...current.settings, ...change } }));
  const setBranding = (change: Partial<Settings['branding']>) =>
    onChange((current) => ({ ...current, settings: { ...current.settings, branding: { ...current.settings.branding, ...change } } }));
  const setTus = (change: Partial<Settings['tus']>) =>
    onChange((current) => ({ ...current, settings: { ...current.settings, tus: { ...current.settings.tus, ...change } } }));

  return (
    <SettingsCard
      title={t('settings.globalForm.title')}
      onSubmit={onSave}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <CheckboxField id="global-signup" label={t('settings.globalForm.signup')} checked={settings.signup} onChange={(signup) => setSettings({ signup })} />
      <CheckboxField
        id="global-create-user-dir"
        label={t('settings.globalForm.createUserDir')}
        checked={settings.createUserDir}
        onChange={(createUserDir) => setSettings({ createUserDir })}
      />
      <div className="settings-grid">
        <div className="field">
          <label className="field__label" htmlFor="global-home-base">
            {t('settings.globalForm.userHomeBasePath')}
          </label>
          <input
            id="global-home-base"
            className="input"
            spellCheck={false}
            autoComplete="off"
            value={settings.userHomeBasePath}
            onChange={(event) => setSettings({ userHomeBasePath: event.target.value })}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="global-min-password">
            {t('settings.globalForm.minimumPasswordLength')}
          </label>
          <input
            id="global-min-password"
            className="input"
            type="number"
            min={1}
            step={1}
            required
            value={Number.isNaN(settings.minimumPasswordLength) ? '' : settings.minimumPasswordLength}
            onChange={(event) => setSettings({ minimumPasswordLength: wholeNumber(event.target.value) })}
          />
        </div>
      </div>
      <RulesEditor idPrefix="global" rules={settings.rules} onChange={(rules) => setSettings({ rules })} />
      <div className="field">
        <label className="field__label" htmlFor="global-shell">
          {t('settings.globalForm.shell')}
        </label>
        <input
          id="global-shell"
          className="input input--mono"
          spellCheck={false}
          autoComplete="off"
          placeholder="/bin/sh -c"
          aria-describedby="global-shell-hint"
          value={draft.shellText}
          onChange={(event) => {
            const shellText = event.target.value;
            onChange((current) => ({ ...current, shellText }));
          }}
        />
        <p id="global-shell-hint" className="form-hint">
          {t('settings.globalForm.shellHelp')}
        </p>
      </div>

      <fieldset className="form-fieldset">
        <legend className="form-fieldset__legend">{t('settings.globalForm.branding')}</legend>
        <p className="form-hint">{t('settings.globalForm.brandingHelp')}</p>
        <div className="settings-grid">
          <div className="field">
            <label className="field__label" htmlFor="global-name">
              {t('settings.globalForm.instanceName')}
            </label>
            <input id="global-name" className="input" autoComplete="off" value={settings.branding.name} onChange={(event) => setBranding({ name: event.target.value })} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="global-theme">
              {t('settings.globalForm.theme')}
            </label>
            <select id="global-theme" className="input select" value={settings.branding.theme} onChange={(event) => setBranding({ theme: event.target.value })}>
              <option value="">{t('settings.globalForm.themeDefault')}</option>
              <option value="light">{t('settings.globalForm.themeLight')}</option>
              <option value="dark">{t('settings.globalForm.themeDark')}</option>
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="global-branding-files">
              {t('settings.globalForm.brandingFiles')}
            </label>
            <input
              id="global-branding-files"
              className="input"
              spellCheck={false}
              autoComplete="off"
              value={settings.branding.files}
              onChange={(event) => setBranding({ files: event.target.value })}
            />
          </div>
        </div>
        <CheckboxField
          id="global-disable-external"
          label={t('settings.globalForm.disableExternal')}
          checked={settings.branding.disableExternal}
          onChange={(disableExternal) => setBranding({ disableExternal })}
        />
        <CheckboxField
          id="global-disable-used"
          label={t('settings.globalForm.disableUsedPercentage')}
          checked={settings.branding.disableUsedPercentage}
          onChange={(disableUsedPercentage) => setBranding({ disableUsedPercentage })}
        />
      </fieldset>

      <fieldset className="form-fieldset">
        <legend className="form-fieldset__legend">{t('settings.globalForm.uploads')}</legend>
        <p className="form-hint">{t('settings.globalForm.uploadsHelp')}</p>
        <div className="settings-grid">
          <div className="field">
            <label className="field__label" htmlFor="global-chunk-size">
              {t('settings.globalForm.chunkSize')}
            </label>
            <ChunkSizeInput id="global-chunk-size" describedBy="global-chunk-size-hint" value={settings.tus.chunkSize} onChange={(chunkSize) => setTus({ chunkSize })} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="global-retry-count">
              {t('settings.globalForm.retryCount')}
            </label>
            <input
              id="global-retry-count"
              className="input"
              type="number"
              min={0}
              step={1}
              required
              value={Number.isNaN(settings.tus.retryCount) ? '' : settings.tus.retryCount}
              onChange={(event) => setTus({ retryCount: wholeNumber(event.target.value) })}
            />
          </div>
        </div>
        <p id="global-chunk-size-hint" className="form-hint">
          {t('settings.globalForm.chunkSizeHelp')}
        </p>
      </fieldset>
    </SettingsCard>
  );
}
