import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiPaths, Headers, type AuditAction } from '@burrow/protocol';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { SharesRepository } from '../shares/shares.repository.js';
import { decodedPathAfter, queryParam, splitHashAndPath } from '../shares/request-path.js';
import { decodePathComponent } from '../../storage/virtual-path.js';

/**
 * Which requests are recorded from their answer, and how: keyed by `METHOD route-pattern`. The
 * outcome comes from the status. `before` runs ahead of the handler for what the request will
 * change or remove (a deleted user's name, the settings as they were); `failuresOnly` routes are
 * recorded here when refused or failed, their successes arriving through the file events.
 *
 * Extension point: a new module's recordable routes are one more entry here.
 */
/** What the rules look up: links, users and the settings. */
export type AuditLookups = {
  shareRepository: Pick<SharesRepository, 'findByHash'>;
  usersRepository: Pick<UsersRepository, 'findById' | 'findByUsername'>;
  settings: Pick<SettingsService, 'get'>;
};

export type RouteRule = {
  action: AuditAction | ((request: FastifyRequest) => AuditAction);
  failuresOnly?: boolean;
  /** Unauthenticated refusals (401 without a user) of this route are noise, not recorded. */
  skipAnonymousRefusals?: boolean;
  /** Sign-in steps that answer a session token: the actor is the user it was issued to. */
  actorFromToken?: boolean;
  /** Public share routes: the actor is the anonymous visitor. */
  anonymous?: boolean;
  /** Recorded only when this holds (for example a password was sent). */
  when?: (request: FastifyRequest) => boolean;
  before?: (services: AuditLookups, request: FastifyRequest) => Promise<unknown>;
  describe?: (context: RuleContext) => { path?: string; destination?: string; details?: Record<string, unknown>; actor?: { id: number | null; username: string } };
};

export type RuleContext = { request: FastifyRequest; reply: FastifyReply; before: unknown; services: AuditLookups; ok: boolean };

/** A JSON body that may have been read as text (the login and share routes take any body as text). */
function jsonBody(request: FastifyRequest): Record<string, unknown> {
  let body: unknown = request.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return {};
    }
  }
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value.slice(0, 255) : undefined);

/** The link a public URL names, with its target as its owner sees it, or undefined. */
async function shareOf(services: AuditLookups, request: FastifyRequest, prefix: string) {
  const { hash, subPath } = splitHashAndPath(decodedPathAfter(request, prefix));
  if (!hash || hash.length > 64) return undefined;
  const share = await services.shareRepository.findByHash(hash);
  return share ? { path: share.path, owner: share.userId, subPath } : undefined;
}

/** The owner-scope path of an item reached through a link (its sub-path joined on). */
function sharedPath(share: { path: string; subPath: string } | undefined): string {
  if (!share) return '';
  return share.subPath === '/' ? share.path : path.posix.join(share.path, share.subPath);
}

async function userName(services: AuditLookups, request: FastifyRequest): Promise<{ id: number; username: string } | undefined> {
  const id = Number((request.params as { id?: string } | undefined)?.id);
  if (!Number.isSafeInteger(id)) return undefined;
  const user = await services.usersRepository.findById(id);
  return user ? { id: user.id, username: user.username } : { id, username: '' };
}

/** The settings as stored before a change, one JSON text per key. */
function settingsSnapshot(services: AuditLookups): Record<string, string> {
  return Object.fromEntries(Object.entries(services.settings.get()).map(([key, value]) => [key, JSON.stringify(value)]));
}

const resourcePath = (request: FastifyRequest) => decodedPathAfter(request, ApiPaths.resources) || '/';

/** What a failed files-API write was trying to do. */
function resourceAction(request: FastifyRequest): AuditAction {
  switch (request.method) {
    case 'POST':
      return resourcePath(request).endsWith('/') ? 'file.mkdir' : 'file.upload';
    case 'PUT':
      return 'file.upload';
    case 'DELETE':
      return 'file.delete';
    default: {
      const action = queryParam(request, 'action');
      if (action === 'copy') return 'file.copy';
      const destination = decodePathComponent(queryParam(request, 'destination') ?? '');
      return path.posix.dirname(destination) === path.posix.dirname(resourcePath(request).replace(/\/+$/, '')) ? 'file.rename' : 'file.move';
    }
  }
}

const resourceRule: RouteRule = {
  action: resourceAction,
  failuresOnly: true,
  skipAnonymousRefusals: true,
  describe: ({ request }) => ({
    path: resourcePath(request),
    destination: request.method === 'PATCH' ? decodePathComponent(queryParam(request, 'destination') ?? '') : undefined,
  }),
};

const tusRule: RouteRule = {
  action: 'file.upload',
  failuresOnly: true,
  skipAnonymousRefusals: true,
  describe: ({ request }) => ({ path: decodedPathAfter(request, ApiPaths.tus) || '/', details: { via: 'tus' } }),
};

const DAV_ACTIONS: Record<string, AuditAction> = { PUT: 'file.upload', MKCOL: 'file.mkdir', DELETE: 'file.delete', MOVE: 'file.move', COPY: 'file.copy' };

const davRule: RouteRule = {
  action: (request) => DAV_ACTIONS[request.method]!,
  when: (request) => request.method in DAV_ACTIONS,
  failuresOnly: true,
  skipAnonymousRefusals: true,
  describe: ({ request }) => ({ path: decodedPathAfter(request, '/dav') || '/', details: { via: 'webdav' } }),
};

const shareCreate: RouteRule = {
  action: 'share.create',
  describe: ({ request }) => {
    const body = jsonBody(request);
    const expires = text(body.expires);
    return {
      path: decodedPathAfter(request, ApiPaths.share) || '/',
      details: { protected: typeof body.password === 'string' && body.password !== '', ...(expires && expires !== '0' ? { expires: `${expires}${text(body.unit) ?? ''}` } : {}) },
    };
  },
};

const shareDelete: RouteRule = {
  action: 'share.delete',
  before: (services, request) => shareOf(services, request, ApiPaths.share),
  describe: ({ before }) => {
    const share = before as Awaited<ReturnType<typeof shareOf>>;
    return { path: share?.path ?? '', details: share ? { owner: share.owner } : {} };
  },
};

const publicShare = (action: AuditAction, prefix: string, when?: RouteRule['when']): RouteRule => ({
  action,
  anonymous: true,
  when,
  before: (services, request) => shareOf(services, request, prefix),
  describe: ({ before, reply, ok }) => {
    const share = before as Awaited<ReturnType<typeof shareOf>>;
    const type = String(reply.getHeader('content-type') ?? '');
    const archive = ok && action === 'share.download' && /zip|x-tar|gzip|bzip2|x-xz|lz4|snappy|brotli|zstd/.test(type);
    return { path: sharedPath(share), details: { ...(share ? { owner: share.owner } : {}), ...(archive ? { archive: true } : {}) } };
  },
});

const hasSharePassword = (request: FastifyRequest) => {
  const header = request.headers[Headers.sharePassword];
  return typeof header === 'string' ? header !== '' : Array.isArray(header) && header.length > 0;
};

const login: RouteRule = {
  action: 'auth.login',
  describe: ({ request, reply }) => {
    const username = text(jsonBody(request).username) ?? '';
    // A right password of an account with two-factor codes answers 401 with the next step named
    // (the two-factor module's state header); the entry says so, and the code step is recorded apart.
    const secondFactor = reply.getHeader('x-burrow-two-factor');
    return { actor: { id: null, username }, details: typeof secondFactor === 'string' ? { secondFactor } : {} };
  },
};

const settingsUpdate: RouteRule = {
  action: 'settings.update',
  before: async (services) => settingsSnapshot(services),
  describe: ({ before, services, ok }) => {
    if (!ok || !before) return {};
    const was = before as Record<string, string>;
    const now = settingsSnapshot(services);
    const keys = Object.keys(now).filter((key) => now[key] !== was[key]);
    return { details: { keys } };
  },
};

const userFields = (request: FastifyRequest): string[] => {
  const which = jsonBody(request).which;
  return Array.isArray(which) ? which.filter((field): field is string => typeof field === 'string').slice(0, 50) : [];
};

const userTarget = (before: unknown) => {
  const target = before as { id: number; username: string } | undefined;
  return target ? { target: target.username, targetId: target.id } : {};
};

export const RouteRules: Record<string, RouteRule> = {
  [`POST ${ApiPaths.login}`]: login,
  [`POST ${ApiPaths.logout}`]: { action: 'auth.logout' },
  // The second step of a login with two-factor codes (when that module is present).
  'POST /api/login/two-factor': { action: 'auth.login', actorFromToken: true, describe: () => ({ details: { step: 'two-factor' } }) },
  'POST /api/oidc/session': { action: 'auth.login', actorFromToken: true, describe: () => ({ details: { via: 'oidc' } }) },

  [`POST ${ApiPaths.resources}`]: resourceRule,
  [`POST ${ApiPaths.resources}/*`]: resourceRule,
  [`PUT ${ApiPaths.resources}/*`]: resourceRule,
  [`DELETE ${ApiPaths.resources}/*`]: resourceRule,
  [`PATCH ${ApiPaths.resources}/*`]: resourceRule,
  [`POST ${ApiPaths.tus}/*`]: tusRule,
  [`PATCH ${ApiPaths.tus}/*`]: tusRule,
  ...Object.fromEntries(Object.keys(DAV_ACTIONS).flatMap((method) => [[`${method} /dav`, davRule], [`${method} /dav/*`, davRule]])),

  [`POST ${ApiPaths.share}`]: shareCreate,
  [`POST ${ApiPaths.share}/*`]: shareCreate,
  [`DELETE ${ApiPaths.share}/*`]: shareDelete,
  [`GET /api/public/share/*`]: publicShare('share.open', ApiPaths.publicShare, hasSharePassword),
  [`GET ${ApiPaths.publicDownload}/*`]: publicShare('share.download', ApiPaths.publicDownload),

  [`PUT ${ApiPaths.settings}`]: settingsUpdate,
  [`POST ${ApiPaths.users}`]: {
    action: 'user.create',
    describe: ({ request }) => {
      const data = jsonBody(request).data as Record<string, unknown> | undefined;
      return { details: { target: text(data?.username) ?? '', admin: Boolean((data?.perm as { admin?: unknown } | undefined)?.admin) } };
    },
  },
  [`PUT ${ApiPaths.users}/:id`]: {
    action: 'user.update',
    before: userName,
    describe: ({ request, before }) => ({ details: { ...userTarget(before), fields: userFields(request) } }),
  },
  [`DELETE ${ApiPaths.users}/:id`]: { action: 'user.delete', before: userName, describe: ({ before }) => ({ details: userTarget(before) }) },

  [`POST ${ApiPaths.trash}/:id/restore`]: { action: 'trash.restore', failuresOnly: true },

  // Two-factor codes and API tokens (when those modules are present).
  'POST /api/two-factor/confirm': { action: 'twofactor.enrol' },
  'POST /api/login/two-factor/confirm': { action: 'twofactor.enrol', actorFromToken: true, describe: () => ({ details: { atLogin: true } }) },
  'POST /api/two-factor/disable': { action: 'twofactor.disable' },
  'DELETE /api/users/:id/two-factor': { action: 'twofactor.reset', before: userName, describe: ({ before }) => ({ details: userTarget(before) }) },
  'POST /api/tokens': { action: 'token.create', describe: ({ request }) => ({ details: { name: text(jsonBody(request).name) ?? '' } }) },
  'DELETE /api/tokens/:id': {
    action: 'token.revoke',
    describe: ({ request }) => ({ details: { id: text((request.params as { id?: string }).id) ?? '' } }),
  },
};
