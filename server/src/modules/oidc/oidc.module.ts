import fp from 'fastify-plugin';
import type { OidcStartup } from '@burrow/protocol';
import type { Services } from '../../app.js';
import { createOidcService, type OidcService } from './oidc.service.js';
import { createOidcSettings } from './oidc.settings.js';
import { oidcRoutes } from './oidc.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the login page needs to know about single sign-on (set by the oidc module). */
    oidcStartup?: () => OidcStartup;
  }
}

const running = new WeakMap<Services, OidcService>();

/** The single sign-on service of an app built with these services. */
export function oidcOf(services: Services): OidcService | undefined {
  return running.get(services);
}

/**
 * Single sign-on through an OpenID Connect provider: its settings, the sign-in routes, the
 * start-up settings of the login page, and the refusal of password sign-ins when they are
 * kept for the break-glass admin.
 */
export const oidcModule = fp<{ services: Services }>(async (app, { services }) => {
  const store = await createOidcSettings(services.db, services.config.oidc);
  const oidc = createOidcService({
    db: services.db,
    store,
    settings: services.settings,
    users: services.usersRepository,
    usersService: services.users,
    auth: services.auth,
    log: app.log,
  });
  running.set(services, oidc);
  services.auth.usePasswordLoginCheck((user) => oidc.checkPasswordLogin(user));
  app.decorate('oidcStartup', () => oidc.startup());
  await app.register(oidcRoutes, { config: services.config, oidc, store });
});
