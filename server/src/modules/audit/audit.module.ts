import path from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AnonymousActor, type AuditAction } from '@burrow/protocol';
import type { FileEvent, FileEvents } from '../../storage/file-events.js';
import type { Cluster } from '../../storage/cluster.js';
import { actorOf, outcomeOf, type AuditActor, type AuditService } from './audit.service.js';
import { RouteRules, type AuditLookups } from './audit.routes-table.js';
import { auditRoutes } from './audit.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit log (see the audit module); modules outside the route table record through it. */
    audit: AuditService;
  }
}

export type AuditDeps = AuditLookups & {
  audit: AuditService;
  fileEvents: FileEvents;
  /** The periodic sweep runs on one instance of a cluster per period. */
  cluster: Pick<Cluster, 'once'>;
  sweepIntervalMs?: number;
};

/** The user named in a session token's claims (unverified: the server has just signed it). */
function tokenUser(token: string): { id: number; username: string } | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { user?: { id?: unknown; username?: unknown } };
    const { id, username } = claims.user ?? {};
    return typeof id === 'number' && typeof username === 'string' ? { id, username } : undefined;
  } catch {
    return undefined;
  }
}

/** A file event as an audit action; `route` is the pattern of the request that caused it. */
function actionOf(event: FileEvent, route: string | undefined): AuditAction {
  const restoring = route?.endsWith('/restore') === true && route.startsWith('/api/trash');
  switch (event.kind) {
    case 'created':
      if (restoring) return 'trash.restore';
      return event.isDir ? 'file.mkdir' : 'file.upload';
    case 'modified':
      return 'file.upload';
    case 'deleted':
      return 'file.delete';
    case 'copied':
      return 'file.copy';
    case 'moved':
      return path.posix.dirname(event.fromVirtual) === path.posix.dirname(event.toVirtual) ? 'file.rename' : 'file.move';
  }
}

/** How a request reached the files: the API (no mark), tus uploads or WebDAV. */
function viaOf(request: FastifyRequest | undefined): Record<string, unknown> {
  const route = request?.routeOptions.url ?? '';
  if (route.startsWith('/dav')) return { via: 'webdav' };
  if (route.startsWith('/api/tus')) return { via: 'tus' };
  return {};
}

/**
 * The audit log. Two ways in, so that other modules need no edits:
 *
 * - File changes come from the file events. The request that caused one is found through
 *   an AsyncLocalStorage entered by this module's onRequest and preHandler hooks (the latter
 *   because body parsing may run in another async context), which gives the client address.
 * - Logins, shares, users, settings, two-factor and tokens are recorded from their answer in an
 *   onResponse hook, by the table in `audit.routes-table.ts` (status → outcome).
 *
 * Command runs are recorded by the command socket itself through `app.audit`, since they end
 * long after the upgrade's answer. Registered before the routes so every route sees the hooks.
 */
export const auditModule = fp<AuditDeps>(async (app, deps) => {
  const { audit, fileEvents, sweepIntervalMs = 3600_000 } = deps;
  const services: AuditLookups = { shareRepository: deps.shareRepository, usersRepository: deps.usersRepository, settings: deps.settings };
  app.decorate('audit', audit);

  const requests = new AsyncLocalStorage<FastifyRequest>();
  /** What a rule's `before` found, per request. */
  const found = new WeakMap<FastifyRequest, unknown>();

  app.addHook('onRequest', (request, _reply, done) => requests.run(request, done));
  app.addHook('preHandler', (request, _reply, done) => {
    const rule = RouteRules[`${request.method} ${request.routeOptions.url}`];
    const enter = () => requests.run(request, done);
    if (!rule?.before) return enter();
    rule
      .before(services, request)
      .then((value) => found.set(request, value))
      .catch((error: unknown) => request.log.warn({ err: error }, 'audit lookup failed'))
      .finally(enter);
  });

  /** Who a sign-in step's answer was issued to, read from the token's claims (the token itself is never kept). */
  const issuedTo = new WeakMap<FastifyRequest, { id: number; username: string }>();
  app.addHook('onSend', async (request, reply, payload) => {
    const rule = RouteRules[`${request.method} ${request.routeOptions.url}`];
    if (rule?.actorFromToken && reply.statusCode < 400 && typeof payload === 'string') {
      const user = tokenUser(payload);
      if (user) issuedTo.set(request, user);
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const rule = RouteRules[`${request.method} ${request.routeOptions.url}`];
    if (!rule) return;
    const status = reply.statusCode;
    const ok = status < 400;
    if (rule.failuresOnly && ok) return;
    if (rule.when && !rule.when(request)) return;
    if (rule.skipAnonymousRefusals && !request.auth && status === 401) return;
    const described = rule.describe?.({ request, reply, before: found.get(request), services, ok }) ?? {};
    let actor: AuditActor = rule.anonymous ? AnonymousActor : actorOf(request);
    if (described.actor) actor = described.actor;
    actor = issuedTo.get(request) ?? actor;
    // A login names who tried; when it worked, the account it opened.
    if (actor !== AnonymousActor && actor.id === null && actor.username && ok) {
      const user = await services.usersRepository.findByUsername(actor.username).catch(() => undefined);
      if (user) actor = { id: user.id, username: user.username };
    }
    await audit.record({
      actor,
      client: request.clientAddress,
      action: typeof rule.action === 'function' ? rule.action(request) : rule.action,
      path: described.path,
      destination: described.destination,
      outcome: outcomeOf(status),
      status,
      details: described.details,
    });
  });

  const detach = fileEvents.on(async (event) => {
    const request = requests.getStore();
    const actor = { id: event.user.id, username: event.user.username };
    const client = request?.clientAddress ?? '';
    const details = viaOf(request);
    const action = actionOf(event, request?.routeOptions.url);
    const status = 0;
    if (event.kind === 'moved' || event.kind === 'copied') {
      await audit.record({ actor, client, action, path: event.fromVirtual, destination: event.toVirtual, outcome: 'ok', status, details: { ...details, isDir: event.isDir } });
      return;
    }
    const extra = event.kind === 'modified' ? { overwrite: true } : { isDir: event.isDir };
    await audit.record({ actor, client, action, path: event.virtual, outcome: 'ok', status, details: { ...details, ...extra } });
  });

  // One sweep at a time; at start, every `sweepIntervalMs` and after the settings change. The
  // periodic ones run on one instance of a cluster per period.
  let current: Promise<unknown> = Promise.resolve();
  const sweep = (periodic = false) => {
    const run = (): Promise<unknown> => (periodic ? deps.cluster.once('audit-sweep', sweepIntervalMs, () => audit.sweep()) : audit.sweep());
    current = current.then(run).catch((error: unknown) => app.log.warn({ err: error }, 'audit sweep failed'));
    return current;
  };
  const timer = setInterval(() => void sweep(true), sweepIntervalMs);
  timer.unref();
  app.addHook('onReady', async () => {
    void sweep(true);
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    detach();
    await current;
    await audit.close();
  });

  await app.register(auditRoutes, { audit, sweep: () => sweep() });
});
