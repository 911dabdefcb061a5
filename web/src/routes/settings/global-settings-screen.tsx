import type { HookEvent, Settings } from '@burrow/protocol';
import { useQuery, useQueryClient } from '../../lib/query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSettings, updateSettings } from '../../api/settings';
import { showSuccess } from '../../lib/notify';
import { useAppSettings } from '../../stores/app-settings-store';
import { CommandsCard } from './global/commands-card';
import { DefaultsCard } from './global/defaults-card';
import { GlobalCard } from './global/global-card';
import { TrashCard } from './global/trash-card';
import { TwoFactorPolicyCard } from './security/two-factor-admin';
import { OidcCard } from './global/oidc-card';
import { draftFromSettings, settingsFromDraft, type SettingsDraft } from './global/settings-draft';
import { SettingsLoadError, SettingsLoading } from './settings-states';
import { SettingsPage } from './settings-page';
import { settingsQueryKey } from './query-keys';
import { useSaveAction } from './use-save-action';

function GlobalSettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const enableExec = useAppSettings((state) => state.settings.EnableExec);
  const patchSettings = useAppSettings((state) => state.patchSettings);
  const [draft, setDraft] = useState(() => draftFromSettings(settings));
  // Saves read the latest draft even when a field applied its value in the same event (a chunk
  // size confirmed by Enter), before React re-rendered.
  const draftRef = useRef(draft);
  const { isSaving, save: runSave } = useSaveAction();

  const update = (change: (current: SettingsDraft) => SettingsDraft) => {
    draftRef.current = change(draftRef.current);
    setDraft(draftRef.current);
  };

  const handleSave = async () => {
    const body = settingsFromDraft(draftRef.current);
    await runSave(async () => {
      await updateSettings(body);
      const saved = await getSettings();
      queryClient.setQueryData(settingsQueryKey, saved);
      // What the page was started with changes at once: theme, name, links, usage bar, uploads.
      patchSettings({
        Name: saved.branding.name,
        Theme: saved.branding.theme,
        DisableExternal: saved.branding.disableExternal,
        DisableUsedPercentage: saved.branding.disableUsedPercentage,
        Signup: saved.signup,
        TusSettings: saved.tus,
      });
      void showSuccess(t('settings.toasts.settingsUpdated'));
    });
  };

  const save = () => void handleSave();
  return (
    <div className="settings__cards">
      <GlobalCard draft={draft} onChange={update} onSave={save} isSaving={isSaving} />
      <DefaultsCard
        defaults={draft.defaults}
        enableExec={enableExec}
        onChange={(defaults) => update((current) => ({ ...current, defaults }))}
        onSave={save}
        isSaving={isSaving}
      />
      <TrashCard
        trash={draft.settings.trash}
        onChange={(trash) => update((current) => ({ ...current, settings: { ...current.settings, trash } }))}
        onSave={save}
        isSaving={isSaving}
      />
      <OidcCard />
      <TwoFactorPolicyCard />
      {enableExec && (
        <CommandsCard
          commandsText={draft.commandsText}
          onChange={(event: HookEvent, text: string) => update((current) => ({ ...current, commandsText: { ...current.commandsText, [event]: text } }))}
          onSave={save}
          isSaving={isSaving}
        />
      )}
    </div>
  );
}

export function GlobalSettingsScreen() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: settingsQueryKey, queryFn: ({ signal }) => getSettings(signal), staleTime: 0 });
  return (
    <SettingsPage title={t('settings.global')}>
      {query.isPending ? <SettingsLoading /> : query.isError ? <SettingsLoadError error={query.error} /> : <GlobalSettingsForm settings={query.data} />}
    </SettingsPage>
  );
}
