import fp from 'fastify-plugin';
import type { OidcStartup } from '@burrow/protocol';
import type { Config } from '../../config.js';
import type { OidcService } from './oidc.service.js';
import type { OidcSettingsStore } from './oidc.settings.js';
import { oidcRoutes } from './oidc.routes.js';

export type OidcDeps = { config: Config; oidc: OidcService; oidcSettings: OidcSettingsStore };

declare module 'fastify' {
  interface FastifyInstance {
    /** What the login page needs to know about single sign-on (set by the oidc module). */
    oidcStartup?: () => OidcStartup;
  }
}

/**
 * Single sign-on through an OpenID Connect provider: the sign-in routes and the start-up
 * settings of the login page. The refusal of password sign-ins kept for the break-glass admin
 * is wired into the auth service by the composition root.
 */
export const oidcModule = fp<OidcDeps>(async (app, { config, oidc, oidcSettings }) => {
  app.decorate('oidcStartup', () => oidc.startup());
  await app.register(oidcRoutes, { config, oidc, store: oidcSettings });
});
