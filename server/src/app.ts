import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import crypto from 'node:crypto';
import type { Config } from './config.js';
import { fastPathsStatus } from './storage/libc.js';
import { createRouteTable } from './plugins/route-table.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { authPlugin } from './plugins/auth.js';
import { allowedHostsPlugin } from './plugins/allowed-hosts.js';
import { loggerOptions } from './plugins/log-redaction.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { VERSION, webAppPlugin } from './plugins/web-app.js';
import { cutSilentConnections } from './plugins/silent-connections.js';
import { acceptWaitingConnections } from './http/accept-waiting.js';
import { openApiRoutes, registerOpenApi } from './plugins/openapi.js';
import { createServices, type Services } from './services.js';
import { lazySchemaCompilers } from './http/lazy-schema-compilers.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { bootstrapAdmin } from './modules/users/bootstrap.js';
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The services this app was built over (tests reach them through the app). */
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
    schemaController: lazySchemaCompilers(),
  });

  const fastPaths = fastPathsStatus();
  if (!fastPaths.available) app.log.warn({ reason: fastPaths.reason }, 'kernel fast paths unavailable: downloads, uploads and listings take slower fallbacks, and a busy server accepts one connection per turn');
  // The composition root builds every service once; plugins and routes below only get them.
  const services = await createServices(config, { log: app.log, fetchImpl: options.fetchImpl });
  const { db, settings, scopes, usersRepository, users, auth } = services;
  app.decorate('services', services);

  await bootstrapAdmin({ config, users: usersRepository, scopes, log: app.log, onPassword: options.onAdminPassword });

  // Registered before any route, so it sees every one of them.
  const routeTable = createRouteTable();
  app.addHook('onRoute', (route) => routeTable.record(route));
  // Also before any route: the OpenAPI document is collected from the routes as they are added.
  await registerOpenApi(app, VERSION);
  await options.beforeRoutes?.(app);

  cutSilentConnections(app.server);
  acceptWaitingConnections(app.server);
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
  await app.register(monitoringPlugin, { config, db, searchIndex: () => services.search.status() });
  // Before every route too: its hooks see each request and the file events they cause.
  await app.register(auditModule, { audit: services.audit, fileEvents: services.fileEvents, cluster: services.cluster, shareRepository: services.shareRepository, usersRepository, settings });
  await app.register(authRoutes, { auth });
  await app.register(usersRoutes, { users, auth });
  await app.register(settingsRoutes, { settings });
  // Feature modules register here, in this order, each with the services it needs.
  // (files, downloads and previews, uploads, shares, search, commands)
  await app.register(resourcesRoutes, { files: services.files, config });
  await app.register(previewsModule, { previews: services.previews, subtitles: services.subtitles });
  await app.register(downloadsModule, { downloads: services.downloads });
  await app.register(uploadsModule, { uploads: services.uploads, baseURL: config.baseURL });
  await app.register(sharesModule, { shares: services.shares, publicShares: services.publicShares, fileRequests: services.fileRequests, baseURL: config.baseURL });
  await app.register(searchModule, { search: services.search });
  await app.register(commandsModule, { commands: services.commands, auth });
  await app.register(webdavModule, { config, scopes, files: services.files, webdav: services.webdav });
  await app.register(trashModule, { trash: services.trash, trashSweeper: services.trashSweeper, settings, cluster: services.cluster });
  await app.register(twoFactorModule, { twoFactor: services.twoFactor });
  await app.register(apiTokensModule, { apiTokens: services.apiTokens });
  await app.register(oidcModule, { config, oidc: services.oidc, oidcSettings: services.oidcSettings });
  await app.register(openApiRoutes);
  await app.register(fp(webAppPlugin), { config, settings, routeTable });

  const purgeEveryMs = 10 * 60_000;
  const purge = setInterval(() => {
    void services.cluster.once('revoked-token-purge', purgeEveryMs, () => auth.purgeRevoked()).catch(() => undefined);
    // Expired guess counts, challenges and sign-on flows kept in a shared database.
    if (services.signIn.shared) void services.cluster.once('sign-in-sweep', purgeEveryMs, () => services.signIn.sweep()).catch(() => undefined);
  }, purgeEveryMs);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await services.close();
  });
  return app;
}

/** Removes the base URL prefix; requests that lack it are routed unchanged. */
function stripBaseURL(url: string, baseURL: string): string {
  if (!baseURL) return url;
  if (url === baseURL) return '/';
  if (url.startsWith(baseURL + '?')) return '/' + url.slice(baseURL.length);
  if (url.startsWith(baseURL + '/')) return url.slice(baseURL.length);
  return url;
}
