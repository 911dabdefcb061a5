import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiTags, OidcLoginQuery, OidcLogoutResult, OidcPaths, OidcSettings, OidcSettingsUpdate, TokenText, redirectResponse, responses, textResponse, type OidcLogoutResponse } from '@burrow/protocol';
import type { Config } from '../../config.js';
import { readCookie } from '../../plugins/cookies.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { isTrustedProxy } from '../auth/proxy.js';
import { OidcFailure, type OidcService } from './oidc.service.js';
import type { OidcSettingsStore } from './oidc.settings.js';

/** Holds the id of the sign-in on its way through the provider; sent back on the provider's redirect. */
const FLOW_COOKIE = 'burrow_oidc_flow';
/** Holds the id of the session waiting for the app; only the app's own requests carry it. */
const HANDOFF_COOKIE = 'burrow_oidc_session';

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

/**
 * The origin browsers reach this server at: the Host header (already checked against
 * allowedHosts), with the scheme and host a trusted proxy forwards.
 */
function publicOrigin(request: FastifyRequest, config: Config): string {
  const trusted = isTrustedProxy(request.ip, config.trustedProxies);
  const forwardedProto = trusted ? firstHeader(request.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : 'http';
  const forwardedHost = trusted ? firstHeader(request.headers['x-forwarded-host']) : undefined;
  const host = forwardedHost && /^[A-Za-z0-9.:[\]-]+$/.test(forwardedHost) ? forwardedHost : (request.headers.host ?? `${config.address}:${config.port}`);
  return `${proto}://${host}`;
}

/** An app path to return to after sign-in: a local path only, never another site. */
function localPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/files/';
  return value.length > 2048 ? '/files/' : value;
}

function cookie(name: string, value: string, options: { path: string; maxAge: number; sameSite: 'Lax' | 'Strict'; secure: boolean }): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    'HttpOnly',
    `SameSite=${options.sameSite}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export const oidcRoutes: FastifyPluginAsyncTypebox<{ config: Config; oidc: OidcService; store: OidcSettingsStore }> = async (app, { config, oidc, store }) => {
  const base = config.baseURL;
  const flowPath = `${base}${OidcPaths.callback}`;
  const handoffPath = `${base}${OidcPaths.session}`;

  const toLogin = (reply: FastifyReply, query: Record<string, string>) =>
    reply.header('cache-control', 'no-store').redirect(`${base}/login?${new URLSearchParams(query).toString()}`, 302);

  const tags = [ApiTags.oidc];
  const security: never[] = [];
  const toLoginPage = { 302: redirectResponse('On to the provider, or back to the login page with sso-error') };
  app.get(OidcPaths.login, { schema: { summary: 'Start single sign-on', tags, security, querystring: OidcLoginQuery, response: responses(toLoginPage) } }, async (request, reply) => {
    const origin = publicOrigin(request, config);
    const secure = origin.startsWith('https:');
    const returnTo = localPath((request.query as Record<string, unknown>).redirect);
    try {
      const { url, flowId } = await oidc.start(`${origin}${flowPath}`, returnTo);
      // Lax: the cookie must come back with the provider's cross-site redirect to the callback.
      reply.header('set-cookie', cookie(FLOW_COOKIE, flowId, { path: flowPath, maxAge: 600, sameSite: 'Lax', secure }));
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      request.log.warn({ reason: error.reason }, 'single sign-on could not start');
      return toLogin(reply, { 'sso-error': error.code });
    }
  });

  app.get(OidcPaths.callback, { schema: { summary: "The provider's redirect back", tags, security, response: responses({ 302: redirectResponse('To the login page, which collects the session') }) } }, async (request, reply) => {
    const origin = publicOrigin(request, config);
    const secure = origin.startsWith('https:');
    const clearFlow = cookie(FLOW_COOKIE, '', { path: flowPath, maxAge: 0, sameSite: 'Lax', secure });
    const current = new URL(request.url, origin);
    try {
      const { handoffId, returnTo } = await oidc.finish(readCookie(request.headers.cookie, FLOW_COOKIE), current);
      // Strict: only the app's own request collects the session, never another site's.
      reply.header('set-cookie', [
        clearFlow,
        cookie(HANDOFF_COOKIE, handoffId, { path: handoffPath, maxAge: 60, sameSite: 'Strict', secure }),
      ]);
      return toLogin(reply, { sso: '1', redirect: returnTo });
    } catch (error) {
      const failure = error instanceof OidcFailure ? error : new OidcFailure('failed', (error as Error).message);
      const level = error instanceof OidcFailure ? 'warn' : 'error';
      request.log[level]({ reason: failure.reason, err: error instanceof OidcFailure ? undefined : error }, 'single sign-on refused');
      reply.header('set-cookie', clearFlow);
      return toLogin(reply, { 'sso-error': failure.code });
    }
  });

  app.post(OidcPaths.session, { schema: { summary: 'Collect the JWT of a finished single sign-on (its cookie)', tags, security, response: responses({ 200: textResponse('The JWT', TokenText) }) } }, async (request, reply) => {
    const origin = publicOrigin(request, config);
    const token = await oidc.collect(readCookie(request.headers.cookie, HANDOFF_COOKIE));
    reply.header('set-cookie', cookie(HANDOFF_COOKIE, '', { path: handoffPath, maxAge: 0, sameSite: 'Strict', secure: origin.startsWith('https:') }));
    reply.header('cache-control', 'no-store');
    if (!token) return sendStatus(reply, 403);
    return reply.header('content-type', 'text/plain').send(token);
  });

  app.post(OidcPaths.logout, { preHandler: app.requireUser, schema: { summary: "Log out, and learn the provider's end-session URL", tags, response: responses({ 200: OidcLogoutResult }) } }, async (request): Promise<OidcLogoutResponse> => {
    const endSessionUrl = await oidc.logout(request.auth!, `${publicOrigin(request, config)}${base}/login`);
    return { endSessionUrl };
  });

  app.get(OidcPaths.settings, { preHandler: app.requireAdmin, schema: { summary: 'Single sign-on settings (admins)', tags, response: responses({ 200: OidcSettings }) } }, async () => store.view());

  app.put(OidcPaths.settings, { preHandler: app.requireAdmin, schema: { summary: 'Change the single sign-on settings (admins)', tags, body: OidcSettingsUpdate, response: responses({ 200: OidcSettings }) } }, async (request) =>
    store.update(request.body),
  );
};
