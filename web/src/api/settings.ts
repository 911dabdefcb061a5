import type { Settings, SettingsUpdate } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { request, requestJson } from './http-client';

export function getSettings(signal?: AbortSignal): Promise<Settings> {
  return requestJson<Settings>(ApiPaths.settings, { signal });
}

export async function updateSettings(settings: SettingsUpdate): Promise<void> {
  await request(ApiPaths.settings, { method: 'PUT', body: settings });
}
