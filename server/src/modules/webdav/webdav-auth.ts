import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiTokenPrefix } from '@burrow/protocol';
import type { AuthService } from '../auth/auth.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRecord } from '../users/users.model.js';
import type { UsersService } from '../users/users.service.js';
import { AppError, unauthorized } from '../../errors.js';
import { tokenOf } from '../../plugins/auth.js';

/** How long a verified Basic credential is trusted without hashing the password again. */
const CACHE_MS = 5 * 60_000;
/** Most credentials remembered at once (the oldest go first). */
const CACHE_ENTRIES = 1000;

type Cached = { token: string; userId: number; expiresAt: number };

export type DavAuthenticator = ReturnType<typeof createDavAuthenticator>;

/** `Authorization: Basic …` as username and password, or undefined when absent or malformed. */
function basicCredentials(header: string | string[] | undefined): { username: string; password: string } | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^\s*basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(value) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Who a WebDAV request comes from: an API token (`X-Auth`, as the API accepts them) or HTTP
 * Basic checked by the auth service's own login, so the same guess limits as the login form
 * apply. A verified credential is remembered briefly, keyed by a keyed hash of it (the password
 * is never kept), as the token that login issued: every request still checks that token, so
 * revoking the user's tokens (password change, deletion) ends the remembered login at once.
 */
export function createDavAuthenticator(deps: { auth: AuthService; settings: SettingsService; users?: Pick<UsersService, 'onUserChanged'> }) {
  const { auth, settings } = deps;
  const cacheKey = crypto.randomBytes(32);
  const cache = new Map<string, Cached>();

  // A user changed (password, rights, deletion) here or on another instance: their remembered
  // logins are checked again from scratch, whatever their tokens would still say.
  deps.users?.onUserChanged((userId) => {
    if (userId === undefined) cache.clear();
    else for (const [key, entry] of cache) if (entry.userId === userId) cache.delete(key);
  });

  const digest = (username: string, password: string) => crypto.createHmac('sha256', cacheKey).update(username).update('\0').update(password).digest('base64');

  function remember(key: string, token: string, userId: number): void {
    if (cache.size >= CACHE_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(key, { token, userId, expiresAt: Date.now() + CACHE_MS });
  }

  async function viaBasic(request: FastifyRequest, username: string, password: string): Promise<UserRecord> {
    const info = { ip: request.ip, headers: request.headers };
    // A personal API token as the password ("app password"), whatever the username: checked as
    // a token on every request, so revoking it ends the access at once.
    if (password.startsWith(ApiTokenPrefix)) return (await auth.authenticate(password, info)).user;
    // Only a password login may be remembered by its credential: under proxy authentication the
    // user comes from a header, whatever the Basic credential says, and it is asked every time.
    const cacheable = settings.get().authMethod === 'json';
    const key = digest(username, password);
    const cached = cacheable ? cache.get(key) : undefined;
    if (cached) {
      if (cached.expiresAt > Date.now()) {
        try {
          return (await auth.authenticate(cached.token, info)).user;
        } catch {
          // Revoked or expired: forget it and check the password again.
        }
      }
      cache.delete(key);
    }
    let token: string;
    try {
      token = await auth.login({ username, password }, info);
    } catch (error) {
      // A wrong password is a 403 on the login route; WebDAV clients expect a fresh challenge.
      if (error instanceof AppError && error.status === 403) throw unauthorized();
      // A user with two-factor signs in to WebDAV with an API token; no login challenge here.
      if (error instanceof AppError && error.status === 401) throw unauthorized();
      throw error;
    }
    const user = (await auth.authenticate(token, info)).user;
    if (cacheable) remember(key, token, user.id);
    return user;
  }

  return {
    /** The acting user; 401 (the route adds the Basic challenge) without valid credentials. */
    async authenticate(request: FastifyRequest): Promise<UserRecord> {
      const token = tokenOf(request);
      if (token) return (await auth.authenticate(token, { ip: request.ip, headers: request.headers })).user;
      const credentials = basicCredentials(request.headers.authorization);
      if (credentials) return viaBasic(request, credentials.username, credentials.password);
      // Behind an authenticating proxy the user comes from its header, as for the login route.
      if (settings.get().authMethod === 'proxy') {
        const info = { ip: request.ip, headers: request.headers };
        return (await auth.authenticate(await auth.login(undefined, info), info)).user;
      }
      throw unauthorized();
    },

    /** Entries remembered now (tests look at this). */
    get cachedCount(): number {
      return cache.size;
    },
  };
}
