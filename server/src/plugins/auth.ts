import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiTokenPrefix, AuthCookie, AuthQueryParam, Headers } from '@burrow/protocol';
import type { AuthService, Authenticated } from '../modules/auth/auth.service.js';
import { forbidden, unauthorized } from '../errors.js';
import type { UserRecord } from '../modules/users/users.model.js';
import { looksLikeJwt } from '../modules/auth/tokens.js';
import { queryValue } from '../http/query.js';
import { readCookie } from './cookies.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Authenticated;
    /** The client's address: the peer, or through trusted proxies the address they name. */
    readonly clientAddress: string;
  }
  interface FastifyInstance {
    /** preHandler: a valid, unrevoked token is required. */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: the user must be an admin. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** A personal API token from `Authorization: Bearer burrow_pat_…`, or undefined. */
function bearerApiToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
  return match && match[1]!.startsWith(ApiTokenPrefix) ? match[1] : undefined;
}

/**
 * The token of a request, in filebrowser's order: X-Auth when it looks like a JWT, else the
 * `?auth=` query parameter (which its front end adds to download and preview links), else the
 * `auth` cookie for GET only. A personal API token comes from X-Auth or `Authorization: Bearer`
 * right after a JWT in X-Auth; it is never read from URLs or cookies.
 */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[Headers.auth];
  const value = Array.isArray(header) ? header[0] : header;
  const text: string | undefined = value;
  if (looksLikeJwt(value)) return value;
  if (text?.startsWith(ApiTokenPrefix)) return text;
  const bearer = bearerApiToken(request);
  if (bearer) return bearer;
  const query = queryValue(request, AuthQueryParam);
  if (looksLikeJwt(query)) return query;
  if (request.method === 'GET' || request.method === 'HEAD') {
    const cookie = readCookie(request.headers.cookie, AuthCookie);
    if (looksLikeJwt(cookie)) return cookie;
  }
  return undefined;
}

/** The authenticated user of a request that passed `requireUser`. */
export function currentUser(request: FastifyRequest): UserRecord {
  if (!request.auth) throw unauthorized();
  return request.auth.user;
}

export const authPlugin = fp<{ auth: AuthService }>(async (app, options) => {
  app.decorateRequest('auth', undefined);
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest) {
      return options.auth.clientOf({ ip: this.ip, headers: this.headers });
    },
  });
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await options.auth.authenticate(tokenOf(request), { ip: request.ip, headers: request.headers });
    request.auth = auth;
    if (auth.shouldRenew) reply.header(Headers.renewToken, 'true');
  });
  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.auth) await app.requireUser(request, reply);
    if (!request.auth?.user.perm.admin) throw forbidden();
  });
});
