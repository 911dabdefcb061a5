import { ApiTokenPrefix, type LoginRequest, type SignupRequest } from '@burrow/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../storage/db.js';
import { createRevokedTokensRepository } from './revoked-tokens.repository.js';
import { badRequest, conflict, forbidden, internal, methodNotAllowed, unauthorized } from '../../errors.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { UserRecord } from '../users/users.model.js';
import { validateNewPassword, verifyPassword as realVerifyPassword } from './passwords.js';
import { issuedAtMs, signToken, verifyToken } from './tokens.js';
import { memoryLimits, type LimitStore } from './attempt-limiter.js';
import { clientAddress, isTrustedProxy } from './proxy.js';
import { createPasswordGuard, LoginPolicy, loginAccount, type PasswordGuard } from './password-guard.js';

export type AuthService = ReturnType<typeof createAuthService>;

export type RequestInfo = {
  /** The direct peer's address (a proxy's, behind one). */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
};

export type Authenticated = {
  user: UserRecord;
  /** Whether the client should renew its token (near expiry, or the user changed since). */
  shouldRenew: boolean;
  jti?: string;
  exp: number;
  /** Set when a personal API token, not a session, authenticated the request. */
  apiToken?: { id: string };
};

const RENEW_WINDOW_SECONDS = 3600;

function headerValue(headers: RequestInfo['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function createAuthService(deps: {
  config: Config;
  db: Db;
  settings: SettingsService;
  users: UsersRepository;
  usersService: UsersService;
  fetchImpl?: typeof fetch;
  /** Limits on password guesses; shared with the current-password checks of user updates. */
  guard?: PasswordGuard;
  /** Where the signup budget is counted (this process by default; the database when instances share it). */
  limits?: LimitStore;
  verifyPassword?: typeof realVerifyPassword;
}) {
  const { config, settings, users, usersService } = deps;
  const revokedTokens = createRevokedTokensRepository(deps.db);
  const fetchImpl = deps.fetchImpl ?? fetch;
  const verifyPassword = deps.verifyPassword ?? realVerifyPassword;
  const guard = deps.guard ?? createPasswordGuard(LoginPolicy);
  // Signups per client address: 10 an hour.
  const signups = (deps.limits ?? memoryLimits)('signup', { max: 10, windowMs: 60 * 60_000 });
  // Set once the two-factor and API token modules exist (they need this service to issue tokens).
  let secondFactor: ((user: UserRecord) => Promise<void>) | undefined;
  let apiTokens: ((token: string) => Promise<Authenticated>) | undefined;
  // Set by single sign-on, which may keep passwords for the break-glass admin alone.
  let passwordLoginCheck: ((user: UserRecord) => void) | undefined;

  /** The client's address, through trusted proxies (see `clientAddress`). */
  function clientOf(request: RequestInfo): string {
    return clientAddress(request.ip, request.headers['x-forwarded-for'], config.trustedProxies);
  }

  async function issue(user: UserRecord): Promise<string> {
    return signToken(user, settings.signingKey(), config.tokenExpiration);
  }

  async function verifyRecaptcha(response: string | undefined): Promise<void> {
    if (!config.recaptchaKey || !config.recaptchaSecret) return;
    if (!response) throw forbidden();
    let ok = false;
    try {
      const reply = await fetchImpl(`${config.recaptchaHost}/recaptcha/api/siteverify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: config.recaptchaSecret, response }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (reply.status !== 200) throw forbidden();
      const body = (await reply.json()) as { success?: boolean };
      ok = body.success === true;
    } catch (error) {
      if ((error as { status?: number }).status === 403) throw error;
      throw internal('captcha verification unavailable');
    }
    if (!ok) throw forbidden();
  }

  async function proxyUser(request: RequestInfo): Promise<UserRecord> {
    if (!isTrustedProxy(request.ip, config.trustedProxies)) throw forbidden();
    const username = headerValue(request.headers, config.proxyHeader)?.trim();
    if (!username) throw forbidden();
    const existing = await users.findByUsername(username);
    if (existing) return existing;
    try {
      return await usersService.provision(username, undefined, { lockPassword: true });
    } catch (error) {
      if ((error as { status?: number }).status === 409) throw forbidden();
      throw error;
    }
  }

  return {
    /** POST /api/login: returns the bare JWT. */
    async login(body: LoginRequest | undefined, request: RequestInfo): Promise<string> {
      const method = settings.get().authMethod;
      if (method === 'noauth') {
        const user = await users.findById(1);
        if (!user) throw internal('user 1 is missing');
        return issue(user);
      }
      if (method === 'proxy') return issue(await proxyUser(request));
      const username = typeof body?.username === 'string' ? body.username : '';
      const password = typeof body?.password === 'string' ? body.password : '';
      let user: UserRecord | undefined;
      // The attempt is counted before the captcha and the hash are checked, so parallel guesses
      // see each other; a refused captcha does not count as a guess.
      const valid = await guard.verify({ account: loginAccount(username), client: clientOf(request) }, async () => {
        await verifyRecaptcha(body?.recaptcha);
        user = username ? await users.findByUsername(username) : undefined;
        return (await verifyPassword(password, user?.passwordHash)) && Boolean(user) && password !== '';
      });
      if (!valid || !user) throw forbidden();
      // Refused only once the password is known to be right, so it tells nothing to a guesser.
      passwordLoginCheck?.(user);
      // A right password may still need a code: this throws 401 with a challenge then.
      if (secondFactor) await secondFactor(user);
      return issue(user);
    },

    /** POST /api/signup. */
    async signup(body: SignupRequest | undefined, request: RequestInfo): Promise<void> {
      const current = settings.get();
      if (!current.signup || current.authMethod !== 'json') throw methodNotAllowed();
      const username = typeof body?.username === 'string' ? body.username.trim() : '';
      const password = typeof body?.password === 'string' ? body.password : '';
      if (!username || !password) throw badRequest('username and password are required');
      // Reserved first, so a burst of parallel signups cannot all pass the budget.
      const attempt = await signups.reserve(clientOf(request));
      try {
        validateNewPassword(password, current.minimumPasswordLength);
      } catch (error) {
        await attempt.release();
        throw error;
      }
      // Taken names count too: signup is no way to list the accounts.
      await attempt.fail();
      if (await users.findByUsername(username)) throw conflict();
      await usersService.provision(username, password, { lockPassword: false });
    },

    /** POST /api/renew: a fresh token from the current stored user. */
    async renew(auth: Authenticated): Promise<string> {
      // An API token holds fewer rights than a session and is not traded for one.
      if (auth.apiToken) throw forbidden();
      return issue(auth.user);
    },

    /** POST /api/logout: revokes the presented token. */
    async logout(auth: Authenticated): Promise<void> {
      if (!auth.jti) return;
      await revokedTokens.add(auth.jti, auth.exp * 1000);
    },

    issue,
    clientOf,

    /** Two-factor: called after a right password, before a token is issued. */
    useSecondFactor(gate: (user: UserRecord) => Promise<void>): void {
      secondFactor = gate;
    },

    /** Single sign-on: called after a right password; throws when this user may not use one. */
    usePasswordLoginCheck(check: (user: UserRecord) => void): void {
      passwordLoginCheck = check;
    },

    /** Personal API tokens (`burrow_pat_…`) are checked by this instead of as JWTs. */
    useApiTokens(check: (token: string) => Promise<Authenticated>): void {
      apiTokens = check;
    },

    /**
     * Checks a token: signature (HS256 only), expiry, revocation (logout, password change,
     * deleted user). Under proxy authentication with a custom logout page an expired token is
     * accepted only while the trusted proxy header names the same user.
     */
    async authenticate(token: string | undefined, request: RequestInfo): Promise<Authenticated> {
      if (!token) throw unauthorized();
      if (token.startsWith(ApiTokenPrefix)) {
        if (!apiTokens) throw unauthorized();
        return apiTokens(token);
      }
      const verified = await verifyToken(token, settings.signingKey());
      if (!verified) throw unauthorized();
      const { payload } = verified;
      if (verified.expired) {
        if (settings.get().authMethod !== 'proxy' || !isTrustedProxy(request.ip, config.trustedProxies)) throw unauthorized();
        const proxied = headerValue(request.headers, config.proxyHeader)?.trim();
        const named = proxied ? await users.findByUsername(proxied) : undefined;
        if (!named || named.id !== payload.user.id) throw unauthorized();
      }
      const user = await users.findById(payload.user.id);
      if (!user) throw unauthorized();
      const issuedMs = issuedAtMs(payload);
      // Revoked by a password change, unless it is the session that made the change.
      if (issuedMs < user.tokensValidAfter && (!payload.jti || payload.jti !== user.keptTokenJti)) throw unauthorized();
      if (payload.jti) {
        if (await revokedTokens.has(payload.jti)) throw unauthorized();
      }
      const now = Math.floor(Date.now() / 1000);
      const shouldRenew = payload.exp - now < RENEW_WINDOW_SECONDS || issuedMs < user.updatedAt;
      return { user, shouldRenew, jti: payload.jti, exp: payload.exp };
    },

    async purgeRevoked(): Promise<void> {
      await revokedTokens.purgeExpired();
    },
  };
}
