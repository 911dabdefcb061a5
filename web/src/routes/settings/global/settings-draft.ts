import type { Settings, SettingsUpdate } from '@burrow/protocol';
import { HookActions, type HookEvent } from '@burrow/protocol/hook-events';
import { draftFromDefaults, splitWords, type UserDraft } from '../../../components/forms/user-draft';

/** The hook events as the command runner card lists them: each action's before, then its after. */
export const HookEventNames: readonly HookEvent[] = HookActions.flatMap((action) => [`before_${action}`, `after_${action}`] as const);

/** The global settings screen's editable state: the loaded settings plus texts as typed. */
export type SettingsDraft = {
  settings: Settings;
  shellText: string;
  defaults: UserDraft;
  commandsText: Record<HookEvent, string>;
};

export function draftFromSettings(settings: Settings): SettingsDraft {
  const commandsText = Object.fromEntries(HookEventNames.map((event) => [event, (settings.commands[event] ?? []).join('\n')])) as Record<HookEvent, string>;
  return {
    settings: structuredClone(settings),
    shellText: settings.shell.join(' '),
    defaults: draftFromDefaults(settings.defaults),
    commandsText,
  };
}

/** Command lines as stored: trimmed, empty lines dropped. */
export function commandLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The full settings object PUT sends, with the shell and commands normalised. */
export function settingsFromDraft(draft: SettingsDraft): SettingsUpdate {
  const { settings, defaults } = draft;
  const commands = Object.fromEntries(HookEventNames.map((event) => [event, commandLines(draft.commandsText[event])]));
  return {
    ...settings,
    shell: splitWords(draft.shellText),
    commands,
    rules: settings.rules,
    defaults: {
      ...settings.defaults,
      scope: defaults.scope.trim(),
      locale: defaults.locale,
      perm: { ...defaults.perm },
      commands: splitWords(defaults.commandsText),
    },
  };
}
