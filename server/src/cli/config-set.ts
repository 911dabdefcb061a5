import { Value } from '@sinclair/typebox/value';
import { AuthMethods, SettingsUpdate, type Settings } from '@burrow/protocol';
import type { SettingsService } from '../modules/settings/settings.service.js';
import { normaliseUpdate } from '../modules/settings/settings.service.js';

/** Sets one dotted settings key from text, validated like an API update. */
export async function setSetting(settings: SettingsService, key: string, text: string): Promise<void> {
  const current = structuredClone(settings.get()) as Settings & Record<string, unknown>;
  if (key === 'authMethod') {
    if (!(AuthMethods as readonly string[]).includes(text)) throw new Error(`authMethod must be one of ${AuthMethods.join(', ')}`);
    await settings.setAuthMethod(text);
    return;
  }
  const parts = key.split('.');
  let target: Record<string, unknown> = current;
  for (const part of parts.slice(0, -1)) {
    const next = target[part];
    if (!next || typeof next !== 'object') throw new Error(`unknown setting ${key}`);
    target = next as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (!(last in target)) throw new Error(`unknown setting ${key}`);
  const previous = target[last];
  let value: unknown;
  if (typeof previous === 'boolean') {
    if (!['true', 'false'].includes(text)) throw new Error(`${key} must be true or false`);
    value = text === 'true';
  } else if (typeof previous === 'number') {
    value = /^\s*-?\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(value)) throw new Error(`${key} must be a whole number`);
  } else if (typeof previous === 'string') {
    value = text;
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`${key} takes JSON`);
    }
  }
  target[last] = value;
  // The same shape check the HTTP API applies: JSON values can hold anything.
  if (!Value.Check(SettingsUpdate, current)) {
    const error = Value.Errors(SettingsUpdate, current).First();
    throw new Error(`${key}: ${error ? `${error.message} at ${error.path || '/'}` : 'invalid value'}`);
  }
  await settings.save(normaliseUpdate(current, settings.get()));
}
