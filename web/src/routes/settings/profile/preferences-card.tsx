import type { TokenUser, User } from '@burrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateUser } from '../../../api/users';
import { CheckboxField } from '../../../components/forms/checkbox-field';
import { LanguageSelect } from '../../../components/forms/language-select';
import { i18next, setLanguage } from '../../../i18n/i18n';
import { EditorThemes, findEditorTheme } from '../../../lib/editor-themes';
import { showError, showSuccess } from '../../../lib/notify';
import { renewSession, useSession } from '../../../stores/session-store';
import { SettingsCard } from '../settings-card';
import { useSaveAction } from '../use-save-action';

/** The fields this card saves; the profile sends exactly these names. */
const PreferenceFields = ['locale', 'hideDotfiles', 'singleClick', 'redirectAfterCopyMove', 'dateFormat', 'aceEditorTheme'] as const;
type Preferences = Pick<User, (typeof PreferenceFields)[number]>;

function preferencesOf(user: TokenUser): Preferences {
  return {
    locale: user.locale,
    hideDotfiles: user.hideDotfiles,
    singleClick: user.singleClick,
    redirectAfterCopyMove: user.redirectAfterCopyMove,
    dateFormat: user.dateFormat,
    aceEditorTheme: user.aceEditorTheme,
  };
}

export function PreferencesCard({ user }: { user: TokenUser }) {
  const { t } = useTranslation();
  const [preferences, setPreferences] = useState(() => preferencesOf(user));
  const { isSaving, save: runSave } = useSaveAction();
  const set = (change: Partial<Preferences>) => setPreferences((current) => ({ ...current, ...change }));

  const handleSave = async () => {
    const current = useSession.getState().user;
    if (!current) {
      void showError(new Error(t('settings.toasts.userNotSet')));
      return;
    }
    await runSave(async () => {
      await updateUser(current.id, preferences, [...PreferenceFields]);
      // The language applies at once; the renewed token then carries every preference.
      await Promise.all([setLanguage(preferences.locale), renewSession()]);
      // Said in the language just chosen, not the one this card was rendered in.
      void showSuccess(i18next.t('settings.toasts.settingsUpdated'));
    });
  };

  return (
    <SettingsCard
      title={t('settings.preferences.title')}
      onSubmit={() => void handleSave()}
      actions={
        <button type="submit" className="button button--primary" disabled={isSaving}>
          {t('settings.actions.save')}
        </button>
      }
    >
      <div className="field">
        <label className="field__label" htmlFor="profile-locale">
          {t('settings.userForm.language')}
        </label>
        <LanguageSelect id="profile-locale" value={preferences.locale} onChange={(locale) => set({ locale })} />
      </div>
      <CheckboxField id="profile-hide-dotfiles" label={t('settings.preferences.hideDotfiles')} checked={preferences.hideDotfiles} onChange={(hideDotfiles) => set({ hideDotfiles })} />
      <CheckboxField id="profile-single-click" label={t('settings.preferences.singleClick')} checked={preferences.singleClick} onChange={(singleClick) => set({ singleClick })} />
      <CheckboxField
        id="profile-redirect"
        label={t('settings.preferences.redirectAfterCopyMove')}
        checked={preferences.redirectAfterCopyMove}
        onChange={(redirectAfterCopyMove) => set({ redirectAfterCopyMove })}
      />
      <CheckboxField id="profile-date-format" label={t('settings.preferences.dateFormat')} checked={preferences.dateFormat} onChange={(dateFormat) => set({ dateFormat })} />
      <div className="field">
        <label className="field__label" htmlFor="profile-editor-theme">
          {t('settings.preferences.editorTheme')}
        </label>
        <select
          id="profile-editor-theme"
          className="input select"
          value={preferences.aceEditorTheme}
          onChange={(event) => set({ aceEditorTheme: event.target.value })}
        >
          <option value="">{t('settings.preferences.editorThemeAuto')}</option>
          {preferences.aceEditorTheme && !findEditorTheme(preferences.aceEditorTheme) && (
            <option value={preferences.aceEditorTheme}>{preferences.aceEditorTheme}</option>
          )}
          <optgroup label={t('settings.preferences.lightThemes')}>
            {EditorThemes.filter((theme) => !theme.isDark).map((theme) => (
              <option key={theme.name} value={theme.name}>
                {theme.caption}
              </option>
            ))}
          </optgroup>
          <optgroup label={t('settings.preferences.darkThemes')}>
            {EditorThemes.filter((theme) => theme.isDark).map((theme) => (
              <option key={theme.name} value={theme.name}>
                {theme.caption}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
    </SettingsCard>
  );
}
