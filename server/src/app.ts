import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import crypto from 'node:crypto';
import type { Config } from './config.js';
import { openDatabase, type Db } from './storage/db.js';
import { createScopes, type Scopes } from './storage/scopes.js';
import { fastPathsStatus } from './storage/libc.js';
import { createRouteTable } from './plugins/route-table.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { authPlugin } from './plugins/auth.js';
import { allowedHostsPlugin } from './plugins/allowed-hosts.js';
import { loggerOptions } from './plugins/log-redaction.js';
import { createPasswordGuard, LoginPolicy } from './modules/auth/password-guard.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { VERSION, webAppPlugin } from './plugins/web-app.js';
import { openApiRoutes, registerOpenApi } from './plugins/openapi.js';
import { createSettingsService, type SettingsService } from './modules/settings/settings.service.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { createUsersRepository, type UsersRepository } from './modules/users/users.repository.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { bootstrapAdmin } from './modules/users/bootstrap.js';
import { createFileEvents, type FileEvents } from './storage/file-events.js';
import { previewsModule } from './modules/previews/previews.module.js';
import { downloadsModule } from './modules/downloads/downloads.module.js';
import { resourcesRoutes } from './modules/files/resources.routes.js';
import { sharesModule } from './modules/shares/shares.module.js';
import { uploadsModule } from './modules/uploads/uploads.module.js';
import { searchModule } from './modules/search/search.module.js';
import { commandsModule } from './modules/commands/commands.module.js';
import { webdavModule } from './modules/webdav/webdav.module.js';
import { trashModule } from './modules/trash/trash.module.js';
import { twoFactorModule } from './modules/two-factor/two-factor.module.js';
import { apiTokensModule } from './modules/api-tokens/api-tokens.module.js';
import { oidcModule } from './modules/oidc/oidc.module.js';
import { monitoringPlugin } from './modules/monitoring/monitoring.plugin.js';
import { auditModule } from './modules/audit/audit.module.js';
import { searchServiceOf } from './modules/search/search.module.js';

/** Everything a route module may need; built once in `buildApp` and passed explicitly. */
export type Services = {
  config: Config;
  db: Db;
  settings: SettingsService;
  scopes: Scopes;
  usersRepository: UsersRepository;
  users: UsersService;
  auth: AuthService;
  /** Changes made on disk through Burrow (search index, thumbnails and shares listen). */
  fileEvents: FileEvents;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export type BuildOptions = {
  /** Replaces the global fetch for outgoing calls (reCAPTCHA verification in tests). */
  fetchImpl?: typeof fetch;
  /** Print the generated admin password here instead of the log (CLI and tests). */
  onAdminPassword?: (password: string) => void;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: NonNullable<Parameters<typeof loggerOptions>[1]>;
  /** Called before any route is registered, so that hooks added here apply to every route (tests check responses this way). */
  beforeRoutes?: (app: FastifyInstance) => void | Promise<void>;
};

/** Builds the whole server: database, services, plugins and routes, in this order. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  fs.mkdirSync(config.root, { recursive: true, mode: config.dirMode });
  fs.mkdirSync(config.cacheDir, { recursive: true, mode: 0o700 });

  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    bodyLimit: 1024 * 1024,
    rewriteUrl: (request) => stripBaseURL(request.url ?? '/', config.baseURL),
    routerOptions: { maxParamLength: 8192, ignoreDuplicateSlashes: false },
  });

  const fastPaths = fastPathsStatus();
  if (!fastPaths.available) app.log.warn({ reason: fastPaths.reason }, 'kernel fast paths unavailable: downloads, uploads and listings take slower fallbacks');
  const db = await openDatabase(config.database);
  const settings = await createSettingsService(db);
  const scopes = createScopes(config, settings);
  const usersRepository = createUsersRepository(db);
  // One budget of password guesses per account, whether they come through login or through the
  // current password asked by user updates.
  const guard = createPasswordGuard(LoginPolicy);
  const users = createUsersService({ users: usersRepository, settings, scopes, guard });
  const auth = createAuthService({ config, db, settings, users: usersRepository, usersService: users, fetchImpl: options.fetchImpl, guard });
  const fileEvents = createFileEvents(app.log);
  const services: Services = { config, db, settings, scopes, usersRepository, users, auth, fileEvents };
  app.decorate('services', services);

  await bootstrapAdmin({ config, users: usersRepository, scopes, log: app.log, onPassword: options.onAdminPassword });

  // Registered before any route, so it sees every one of them.
  const routeTable = createRouteTable();
  app.addHook('onRoute', (route) => routeTable.record(route));
  // Also before any route: the OpenAPI document is collected from the routes as they are added.
  await registerOpenApi(app, VERSION);
  await options.beforeRoutes?.(app);

  await app.register(errorHandlerPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(securityHeadersPlugin, { config });
  await app.register(authPlugin, { auth });
  // Before the base URL redirect and every route: a foreign Host is refused before anything else.
  await app.register(allowedHostsPlugin, { allowedHosts: config.allowedHosts });

  if (config.baseURL) {
    app.addHook('onRequest', async (request, reply) => {
      // rewriteUrl has already stripped the prefix from request.url; the bare prefix shows only
      // in the original URL.
      const original = request.originalUrl;
      if (original === config.baseURL || original.startsWith(`${config.baseURL}?`)) {
        return reply.redirect(`${config.baseURL}/${original.slice(config.baseURL.length)}`, 301);
      }
    });
  }

  // Before every route, so that each one is measured.
  await app.register(monitoringPlugin, { config, db, searchIndex: () => searchServiceOf(services)?.status() });
  // Before every route too: its hooks see each request and the file events they cause.
  await app.register(auditModule, { services });
  await app.register(authRoutes, { auth });
  await app.register(usersRoutes, { users, auth });
  await app.register(settingsRoutes, { settings });
  // Feature modules register here, in this order, each with the services it needs.
  // (files, downloads and previews, uploads, shares, search, commands)
  await app.register(resourcesRoutes, { services });
  await app.register(previewsModule, { services });
  await app.register(downloadsModule, { services });
  await app.register(uploadsModule, { services });
  await app.register(sharesModule, { services });
  await app.register(searchModule, { services });
  await app.register(commandsModule, { services });
  await app.register(webdavModule, { services });
  await app.register(trashModule, { services });
  await app.register(twoFactorModule, { services });
  await app.register(apiTokensModule, { services });
  await app.register(oidcModule, { services });
  await app.register(openApiRoutes);
  await app.register(fp(webAppPlugin), { config, settings, routeTable });

  const purge = setInterval(() => void auth.purgeRevoked().catch(() => undefined), 10 * 60_000);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await db.destroy();
  });
  return app;
}

/** Removes the base URL prefix; requests that lack it are routed unchanged. */
export function stripBaseURL(url: string, baseURL: string): string {
  if (!baseURL) return url;
  if (url === baseURL) return '/';
  if (url.startsWith(baseURL + '?')) return '/' + url.slice(baseURL.length);
  if (url.startsWith(baseURL + '/')) return url.slice(baseURL.length);
  return url;
}
