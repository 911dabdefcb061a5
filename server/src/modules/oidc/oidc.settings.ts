import crypto from 'node:crypto';
import type { OidcSettings, OidcSettingsUpdate } from '@burrow/protocol';
import type { OidcConfig } from '../../config.js';
import type { Db } from '../../storage/db.js';
import type { Cluster } from '../../storage/cluster.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { badRequest } from '../../errors.js';

/** Everything stored, the client secret included; never sent as is. */
export type OidcStored = Omit<OidcSettings, 'clientSecretSet' | 'locked'> & { clientSecret: string };

const SETTINGS_KEY = 'oidc';

const DefaultOidc: OidcStored = {
  enabled: false,
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: 'openid profile email',
  usernameClaim: 'preferred_username',
  groupsClaim: '',
  adminGroup: '',
  buttonLabel: '',
  autoCreate: true,
  passwordLogin: true,
  breakGlassAdmin: '',
};

/** Loopback names may use plain http (a provider on the same machine); every other issuer needs https. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Checks an issuer URL; the empty string is allowed (single sign-on unconfigured). */
function checkIssuer(issuer: string): void {
  if (!issuer) return;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw badRequest('issuer must be a URL');
  }
  if (url.search || url.hash || url.username || url.password) throw badRequest('issuer must have no query, fragment or credentials');
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return;
  throw badRequest('issuer must use https');
}

/** Whether an issuer is plain http (allowed for loopback addresses only, see `checkIssuer`). */
export function isInsecureIssuer(issuer: string): boolean {
  return issuer.startsWith('http:');
}

const CLAIM = /^[A-Za-z0-9_.:/-]+$/;

function validate(settings: OidcStored): OidcStored {
  const clean = {
    ...settings,
    issuer: settings.issuer.trim(),
    clientId: settings.clientId.trim(),
    scopes: settings.scopes.split(/\s+/).filter(Boolean).join(' '),
    usernameClaim: settings.usernameClaim.trim() || DefaultOidc.usernameClaim,
    groupsClaim: settings.groupsClaim.trim(),
    adminGroup: settings.adminGroup.trim(),
    buttonLabel: settings.buttonLabel.trim(),
    breakGlassAdmin: settings.breakGlassAdmin.trim(),
  };
  checkIssuer(clean.issuer);
  if (!CLAIM.test(clean.usernameClaim)) throw badRequest('invalid username claim');
  if (clean.groupsClaim && !CLAIM.test(clean.groupsClaim)) throw badRequest('invalid groups claim');
  if (/[^\x21-\x7e ]/.test(clean.scopes)) throw badRequest('invalid scopes');
  if (clean.enabled && (!clean.issuer || !clean.clientId)) throw badRequest('single sign-on needs an issuer and a client id');
  if (!clean.passwordLogin && !clean.breakGlassAdmin) throw badRequest('turning password sign-in off needs a break-glass admin');
  return clean;
}

export type OidcSettingsStore = Awaited<ReturnType<typeof createOidcSettings>>;

/**
 * The single sign-on settings: stored in the settings table, each field overridden by the server
 * configuration when given there (those fields are locked in the settings screen).
 */
export async function createOidcSettings(db: Db, fixed: OidcConfig, cluster?: Cluster) {
  const repository = createSettingsRepository(db);
  const read = async (): Promise<OidcStored> => {
    const row = await repository.get(SETTINGS_KEY);
    return { ...DefaultOidc, ...(row !== undefined ? (JSON.parse(row) as Partial<OidcStored>) : {}) };
  };
  let stored = await read();
  const locked = Object.keys(fixed).filter((key) => fixed[key as keyof OidcConfig] !== undefined) as (keyof OidcConfig)[];
  // A configuration naming an issuer means single sign-on is wanted, unless it says otherwise.
  const implied: Partial<OidcStored> = fixed.issuer && fixed.enabled === undefined ? { enabled: true } : {};
  const effective = (): OidcStored => ({ ...stored, ...implied, ...(fixed as Partial<OidcStored>) });
  let version = 0;
  // Changed on another instance: read again, and drop the provider metadata cached for the old ones.
  cluster?.on(SETTINGS_KEY, () => {
    void read()
      .then((next) => {
        stored = next;
        version += 1;
      })
      .catch(() => undefined);
  });

  return {
    /** The settings in force, the secret included (server side only). */
    get: effective,
    /** Bumped on every change, so cached provider metadata can be dropped. */
    version: () => version,
    /**
     * A digest of the settings in force, the same on every instance that has them: a sign-in
     * started under other settings (on this instance or another) is refused.
     */
    fingerprint: () => crypto.createHash('sha256').update(JSON.stringify(effective())).digest('base64url'),
    /** What admins see: no secret, only whether one is set. */
    view(): OidcSettings {
      const { clientSecret, ...rest } = effective();
      return { ...rest, clientSecretSet: clientSecret !== '', locked: [...locked, ...Object.keys(implied)] };
    },
    async update(update: OidcSettingsUpdate): Promise<OidcSettings> {
      const current = effective();
      for (const key of locked) {
        if (key === 'clientSecret') {
          if (update.clientSecret !== undefined) throw badRequest('clientSecret is set in the server configuration');
        } else if (update[key] !== current[key]) {
          throw badRequest(`${key} is set in the server configuration`);
        }
      }
      const next = validate({ ...effective(), ...update, clientSecret: update.clientSecret ?? stored.clientSecret, ...(fixed as Partial<OidcStored>), ...implied });
      // Only what the configuration does not fix is stored.
      const toStore: OidcStored = { ...next, clientSecret: update.clientSecret ?? stored.clientSecret };
      for (const key of locked) (toStore as Record<string, unknown>)[key] = stored[key];
      const value = JSON.stringify(toStore);
      await repository.put(SETTINGS_KEY, value);
      stored = toStore;
      version += 1;
      await cluster?.publish(SETTINGS_KEY);
      return this.view();
    },
  };
}
