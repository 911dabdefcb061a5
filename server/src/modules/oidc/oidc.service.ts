import type * as OidcClient from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import type { OidcError, OidcStartup } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import { createOidcIdentitiesRepository } from './oidc-identities.repository.js';
import type { AuthService, Authenticated } from '../auth/auth.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import { allPermissions, type NewUserRecord, type UserRecord } from '../users/users.model.js';
import { forbidden } from '../../errors.js';
import { memoryFlows, sameSecret, type FlowStores } from './oidc.flows.js';
import { isInsecureIssuer, type OidcSettingsStore, type OidcStored } from './oidc.settings.js';

/** The OpenID Connect client loads with the first sign-in: servers without single sign-on never carry it. */
let clientModule: Promise<typeof OidcClient> | undefined;
const loadClient = () => (clientModule ??= import('openid-client'));

/** A sign-in that could not finish; `code` goes to the login page, `reason` to the log. */
export class OidcFailure extends Error {
  constructor(
    readonly code: OidcError,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'OidcFailure';
  }
}

/** A sign-in between the redirect to the provider and the way back. */
type PendingSignIn = {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  /** Where the app goes once signed in (an app path, checked again by the app). */
  returnTo: string;
  /** A digest of the settings it started under: changed ones make it start again. */
  settingsVersion: string;
};

/** Sign-ins have ten minutes to come back from the provider. */
const SIGN_IN_TTL_MS = 10 * 60_000;
/** The app collects its session right after the redirect: one minute is plenty. */
const HANDOFF_TTL_MS = 60_000;
/** Provider metadata is read again after this long (keys are refetched as needed meanwhile). */
const DISCOVERY_TTL_MS = 60 * 60_000;

export type OidcService = ReturnType<typeof createOidcService>;

type ClientError = { message?: string; error?: string; error_description?: string; cause?: unknown };

/** A client library error for the log: its message, the provider's error code, the claim or attribute at fault; never a token. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  let current = error as ClientError | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 3; depth++) {
    if (current.message) parts.push(current.message);
    if (typeof current.error === 'string') parts.push(`(${current.error}${current.error_description ? `: ${current.error_description}` : ''})`);
    const cause = current.cause as { claim?: unknown; attribute?: unknown; parameter?: unknown } | undefined;
    for (const key of ['claim', 'attribute', 'parameter'] as const) {
      if (cause && typeof cause[key] === 'string') parts.push(`[${key} "${cause[key]}"]`);
    }
    current = current.cause instanceof Error ? (current.cause as ClientError) : undefined;
  }
  return parts.join(' ') || String(error);
}

/** The user's name from the claims: the configured claim, else `email`, else `sub`. */
function usernameFromClaims(claims: Record<string, unknown>, claim: string): string | undefined {
  for (const name of [claim, 'email', 'sub']) {
    const value = claims[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** The user's groups from a claim holding a list of names or a single name. */
function groupsFromClaims(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

export function createOidcService(deps: {
  db: Db;
  store: OidcSettingsStore;
  settings: SettingsService;
  users: UsersRepository;
  usersService: UsersService;
  auth: AuthService;
  log: FastifyBaseLogger;
  /** Where flows wait between requests (this process by default; the database when instances share it). */
  flows?: FlowStores;
}) {
  const { store, users, usersService, auth, log } = deps;
  const identities = createOidcIdentitiesRepository(deps.db);
  const flows = deps.flows ?? memoryFlows;
  const pending = flows<PendingSignIn>('oidc-sign-in', { ttlMs: SIGN_IN_TTL_MS, max: 10_000 });
  const handoffs = flows<string>('oidc-handoff', { ttlMs: HANDOFF_TTL_MS, max: 10_000 });
  let discovered: { version: number; at: number; config: Promise<OidcClient.Configuration> } | undefined;

  function active(): OidcStored | undefined {
    const settings = store.get();
    return settings.enabled && settings.issuer && settings.clientId ? settings : undefined;
  }

  /** The provider's metadata and this client, read once and kept for an hour or until the settings change. */
  function providerConfig(settings: OidcStored): Promise<OidcClient.Configuration> {
    const version = store.version();
    if (discovered && discovered.version === version && Date.now() - discovered.at < DISCOVERY_TTL_MS) return discovered.config;
    const secret = settings.clientSecret;
    const config = loadClient().then((client) =>
      client.discovery(
        new URL(settings.issuer),
        settings.clientId,
        secret ? { client_secret: secret } : undefined,
        secret ? client.ClientSecretBasic(secret) : client.None(),
        { execute: isInsecureIssuer(settings.issuer) ? [client.allowInsecureRequests] : [], timeout: 10 },
      ),
    );
    const entry = { version, at: Date.now(), config };
    discovered = entry;
    // A failed discovery is not kept: the next sign-in asks again.
    config.catch(() => {
      if (discovered === entry) discovered = undefined;
    });
    return config;
  }

  async function configOrFail(settings: OidcStored): Promise<OidcClient.Configuration> {
    try {
      return await providerConfig(settings);
    } catch (error) {
      throw new OidcFailure('failed', `provider discovery failed: ${describeError(error)}`);
    }
  }

  /** The Burrow user of a provider account: found by issuer and subject, else by name (then bound), else created. */
  async function resolveUser(settings: OidcStored, issuer: string, claims: Record<string, unknown>): Promise<UserRecord> {
    const subject = String(claims.sub);
    const linked = await identities.userOf(issuer, subject);
    if (linked !== undefined) {
      const user = await users.findById(linked);
      if (user) return user;
      // The user was deleted since: the account starts afresh.
      await identities.unbind(issuer, subject);
    }
    const username = usernameFromClaims(claims, settings.usernameClaim);
    if (!username) throw new OidcFailure('no-account', 'the ID token names no user');
    let user = await users.findByUsername(username);
    if (user) {
      if (await identities.isBound(user.id)) throw new OidcFailure('not-allowed', `user ${username} belongs to another provider account`);
    } else {
      if (!settings.autoCreate) throw new OidcFailure('no-account', `no user ${username} and automatic creation is off`);
      try {
        user = await usersService.provision(username, undefined, { lockPassword: true });
      } catch (error) {
        throw new OidcFailure('no-account', `user ${username} could not be created: ${(error as Error).message}`);
      }
      log.info({ username }, 'single sign-on created a user');
    }
    await identities.bind(issuer, subject, user.id);
    return user;
  }

  /** Members of the admin group become admins; others stop being one (never the break-glass admin, never the last admin). */
  async function applyGroups(settings: OidcStored, user: UserRecord, claims: Record<string, unknown>): Promise<UserRecord> {
    if (!settings.groupsClaim || !settings.adminGroup) return user;
    const isAdmin = groupsFromClaims(claims, settings.groupsClaim).includes(settings.adminGroup);
    if (isAdmin === user.perm.admin) return user;
    const { id, tokensValidAfter: _t, keptTokenJti: _k, updatedAt: _u, createdAt: _c, ...record } = user;
    let next: NewUserRecord;
    if (isAdmin) {
      next = { ...record, perm: allPermissions(), lockPassword: false };
    } else {
      if (user.username === settings.breakGlassAdmin) return user;
      if ((await users.countAdmins()) <= 1) {
        log.warn({ username: user.username }, 'single sign-on left admin rights to the last admin');
        return user;
      }
      next = { ...record, perm: { ...deps.settings.get().defaults.perm, admin: false, execute: false } };
    }
    await users.update(id, next);
    log.info({ username: user.username, admin: isAdmin }, 'single sign-on changed admin rights from the groups claim');
    return (await users.findById(id)) ?? user;
  }

  return {
    /** For the login page: whether to show the button, its label, and whether passwords are for everyone. */
    startup(): OidcStartup {
      const settings = active();
      return {
        Enabled: Boolean(settings),
        ButtonLabel: settings?.buttonLabel ?? '',
        PasswordLogin: !settings || settings.passwordLogin,
      };
    },

    /**
     * Refuses a password sign-in, once the password is known to be right, while single sign-on
     * keeps passwords for the break-glass admin alone.
     */
    checkPasswordLogin(user: UserRecord): void {
      const settings = active();
      if (!settings || settings.passwordLogin) return;
      if (user.username === settings.breakGlassAdmin && user.perm.admin) return;
      throw forbidden('password sign-in is turned off: use single sign-on');
    },

    /** Starts a sign-in: the provider's authorization URL and the id of the pending sign-in (for the cookie). */
    async start(redirectUri: string, returnTo: string): Promise<{ url: string; flowId: string }> {
      const settings = active();
      if (!settings) throw new OidcFailure('disabled', 'single sign-on is off');
      const config = await configOrFail(settings);
      const client = await loadClient();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const scopes = new Set(['openid', ...settings.scopes.split(' ').filter(Boolean)]);
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: [...scopes].join(' '),
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      const flowId = await pending.put({ state, nonce, codeVerifier, redirectUri, returnTo, settingsVersion: store.fingerprint() });
      return { url: url.href, flowId };
    },

    /**
     * Finishes a sign-in from the provider's answer: checks state (against the cookie's pending
     * sign-in), exchanges the code with PKCE, checks the ID token (issuer, audience, expiry,
     * nonce), finds or creates the user and issues a Burrow token, kept for the app to collect.
     */
    async finish(flowId: string | undefined, currentUrl: URL): Promise<{ handoffId: string; returnTo: string }> {
      const settings = active();
      if (!settings) throw new OidcFailure('disabled', 'single sign-on is off');
      const flow = await pending.take(flowId);
      const state = currentUrl.searchParams.get('state') ?? '';
      if (!flow || !sameSecret(state, flow.state)) throw new OidcFailure('state', 'unknown sign-in or state mismatch');
      if (flow.settingsVersion !== store.fingerprint()) throw new OidcFailure('state', 'the single sign-on settings changed during the sign-in');
      const providerError = currentUrl.searchParams.get('error');
      if (providerError) throw new OidcFailure(providerError === 'access_denied' ? 'denied' : 'failed', `provider answered ${providerError}`);
      const config = await configOrFail(settings);
      const client = await loadClient();
      // The redirect URI sent at the start is the one the code was issued for.
      const callbackUrl = new URL(flow.redirectUri);
      callbackUrl.search = currentUrl.search;
      let tokens: Awaited<ReturnType<typeof OidcClient.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new OidcFailure('failed', `code exchange refused: ${describeError(error)}`);
      }
      const idClaims = tokens.claims();
      if (!idClaims) throw new OidcFailure('failed', 'the provider sent no ID token');
      let claims: Record<string, unknown> = { ...idClaims };
      const needsGroups = Boolean(settings.groupsClaim) && claims[settings.groupsClaim] === undefined;
      if ((claims[settings.usernameClaim] === undefined || needsGroups) && config.serverMetadata().userinfo_endpoint) {
        try {
          const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          claims = { ...info, ...claims };
        } catch (error) {
          log.warn({ err: error }, 'single sign-on could not read the userinfo endpoint');
        }
      }
      const user = await applyGroups(settings, await resolveUser(settings, idClaims.iss, claims), claims);
      const token = await auth.issue(user);
      return { handoffId: await handoffs.put(token), returnTo: flow.returnTo };
    },

    /** The token waiting behind a hand-off cookie (once). */
    collect(handoffId: string | undefined): Promise<string | undefined> {
      return handoffs.take(handoffId);
    },

    /** Ends the Burrow session and answers the provider's end-session URL, when it has one. */
    async logout(session: Authenticated, postLogoutRedirectUri: string): Promise<string> {
      await auth.logout(session);
      const settings = active();
      if (!settings) return '';
      try {
        const config = await providerConfig(settings);
        if (!config.serverMetadata().end_session_endpoint) return '';
        const client = await loadClient();
        return client.buildEndSessionUrl(config, { post_logout_redirect_uri: postLogoutRedirectUri }).href;
      } catch {
        return '';
      }
    },
  };
}
