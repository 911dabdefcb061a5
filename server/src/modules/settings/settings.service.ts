import crypto from 'node:crypto';
import { DefaultMinimumPasswordLength, DefaultTus, HookEvents, ViewModes, type Settings, type SettingsUpdate } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import type { Cluster } from '../../storage/cluster.js';
import { createSettingsRepository } from './settings.repository.js';
import { badRequest } from '../../errors.js';
import { freshSettings } from './settings.defaults.js';
import { sanitiseRules, validateRules } from '../../storage/rules.js';

const SETTINGS_KEY = 'settings';
const MAX_PASSWORD_BYTES = 1024;
const SIGNING_KEY = 'signing_key';

/** Where a settings change was made: on this instance, or on another one of its cluster. */
export type ChangeOrigin = 'here' | 'elsewhere';

export type SettingsService = Awaited<ReturnType<typeof createSettingsService>>;

/** Applies the read-side defaults of the wire protocol to a stored settings object. */
function normaliseOnRead(settings: Settings): Settings {
  return {
    ...settings,
    userHomeBasePath: settings.userHomeBasePath || '/users',
    minimumPasswordLength: settings.minimumPasswordLength || DefaultMinimumPasswordLength,
    tus: settings.tus.chunkSize === 0 && settings.tus.retryCount === 0 ? { ...DefaultTus } : settings.tus,
  };
}

/** Validates and normalises a settings update; keeps the stored authMethod. */
export function normaliseUpdate(update: SettingsUpdate, current: Settings): Settings {
  const commands: Record<string, string[]> = {};
  for (const event of HookEvents) commands[event] = [];
  for (const [event, lines] of Object.entries(update.commands ?? {})) {
    if (!(HookEvents as readonly string[]).includes(event)) throw badRequest(`unknown command event ${event}`);
    commands[event] = (lines ?? []).map((line) => line.trim()).filter(Boolean);
  }
  const rules = sanitiseRules(update.rules ?? []);
  validateRules(rules);
  const defaults = { ...update.defaults };
  defaults.locale = defaults.locale || 'en';
  defaults.viewMode = defaults.viewMode || 'mosaic';
  if (!(ViewModes as readonly string[]).includes(defaults.viewMode)) throw badRequest('invalid view mode');
  if (defaults.perm.share && !defaults.perm.download) throw badRequest('permission to share requires permission to download');
  if (!['', 'light', 'dark'].includes(update.branding.theme)) throw badRequest('invalid theme');
  // Passwords longer than this are refused anyway, so a larger minimum would lock everyone out.
  if (update.minimumPasswordLength > MAX_PASSWORD_BYTES) throw badRequest(`minimumPasswordLength must be at most ${MAX_PASSWORD_BYTES}`);
  const userHomeBasePath = update.userHomeBasePath.trim();
  if (userHomeBasePath.split(/[\\/]/).includes('..')) throw badRequest('invalid home base path');
  return {
    signup: update.signup,
    hideLoginButton: update.hideLoginButton ?? current.hideLoginButton,
    createUserDir: update.createUserDir,
    minimumPasswordLength: update.minimumPasswordLength,
    userHomeBasePath,
    defaults: { ...defaults, commands: defaults.commands ?? [] },
    authMethod: current.authMethod,
    rules,
    branding: update.branding,
    tus: update.tus,
    shell: (update.shell ?? []).map((word) => word.trim()).filter(Boolean),
    commands,
    // filebrowser's clients know nothing of the trash; what they leave out stays as stored.
    trash: update.trash ?? current.trash,
  };
}

/**
 * Loads the settings once at start (creating them and the signing key on first run) and keeps
 * them in memory; every write goes through `save`, which refreshes the cached copy and tells the
 * other instances of a cluster, which read the stored settings again.
 */
export async function createSettingsService(db: Db, cluster?: Cluster) {
  let cached: Settings;

  const repository = createSettingsRepository(db);
  const byKey = await repository.all();
  /**
   * The stored value of `key`, or `fresh` stored now. Instances of a cluster started together on
   * an empty database race for the first run: one that loses takes the value the winner stored, so
   * that every instance signs with the same key.
   */
  const storedOr = async (key: string, fresh: string): Promise<string> => {
    const known = byKey.get(key);
    if (known !== undefined) return known;
    try {
      await repository.insert(key, fresh);
      return fresh;
    } catch (error) {
      const winner = (await repository.all()).get(key);
      if (winner === undefined) throw error;
      return winner;
    }
  };
  const isFirstRun = !byKey.has(SETTINGS_KEY);
  const fresh = freshSettings();
  cached = { ...fresh, ...JSON.parse(await storedOr(SETTINGS_KEY, JSON.stringify(fresh))) };
  const signingKey: Uint8Array = Buffer.from(await storedOr(SIGNING_KEY, crypto.randomBytes(64).toString('base64')), 'base64');

  const listeners = new Set<(settings: Settings, origin: ChangeOrigin) => void>();
  const notify = (settings: Settings, origin: ChangeOrigin) => {
    for (const listener of listeners) listener(settings, origin);
  };

  // Changed on another instance: read again. A read that fails (the database going away as the
  // server stops) keeps the copy in memory; the next change or reconnection reads again.
  cluster?.on('settings', () => {
    void repository
      .all()
      .then((rows) => {
        const stored = rows.get(SETTINGS_KEY);
        if (!stored) return;
        cached = { ...freshSettings(), ...JSON.parse(stored) };
        notify(normaliseOnRead(cached), 'elsewhere');
      })
      .catch(() => undefined);
  });

  return {
    isFirstRun,
    get(): Settings {
      return normaliseOnRead(cached);
    },
    signingKey(): Uint8Array {
      return signingKey;
    },
    async save(next: Settings): Promise<Settings> {
      await repository.update(SETTINGS_KEY, JSON.stringify(next));
      cached = next;
      notify(this.get(), 'here');
      // Saved already: a failed notice leaves the others to their next reconnection's re-read.
      await cluster?.publish('settings').catch(() => undefined);
      return this.get();
    },
    async update(update: SettingsUpdate): Promise<Settings> {
      return this.save(normaliseUpdate(update, cached));
    },
    async setAuthMethod(method: string): Promise<Settings> {
      return this.save({ ...cached, authMethod: method });
    },
    /** Calls `listener` after each change, saying whether it was made here or on another instance. */
    onChange(listener: (settings: Settings, origin: ChangeOrigin) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
