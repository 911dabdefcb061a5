import { create } from 'zustand';
import type { StartupSettings } from '@burrow/protocol';
import { readStartupSettings } from '../lib/startup';

type AppSettingsState = {
  settings: StartupSettings;
  /** Applies changed deployment settings at once (the global settings screen calls this after a save). */
  patchSettings: (changes: Partial<StartupSettings>) => void;
};

/** Deployment settings injected into the page at start-up. */
export const useAppSettings = create<AppSettingsState>((set) => ({
  settings: readStartupSettings(),
  patchSettings: (changes) => set((state) => ({ settings: { ...state.settings, ...changes } })),
}));

/** The current settings outside React. */
export function appSettings(): StartupSettings {
  return useAppSettings.getState().settings;
}

/** True when the user may log out from the UI (not with proxy authentication or without authentication). */
export function canLogout(settings: StartupSettings): boolean {
  return !settings.NoAuth && settings.AuthMethod !== 'proxy';
}

/** True when a login form is used at all (json auth); otherwise logging in needs no credentials. */
export function usesLoginPage(settings: StartupSettings): boolean {
  return settings.LoginPage && !settings.NoAuth;
}
