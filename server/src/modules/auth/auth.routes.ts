import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, AuthBodyLimit, Headers, LoginRequest, SignupRequest, TokenText, jsonBody, responses, textResponse } from '@burrow/protocol';
import type { AuthService } from './auth.service.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { badRequest } from '../../errors.js';

/** Parses an optional JSON body that was read as text (login under noauth/proxy may send none). */
function parseJsonBody<T>(raw: unknown): T | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'object') return raw as T;
  try {
    return JSON.parse(String(raw)) as T;
  } catch {
    throw badRequest('malformed JSON');
  }
}

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  // Bodies are read as text whatever their declared type (clients differ) and parsed here, so an
  // unparsable login answers like a failed one; capped at 1 MiB.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: AuthBodyLimit }, (_request, body, done) => done(null, body));

  const tags = [ApiTags.auth];
  app.post(
    ApiPaths.login,
    {
      bodyLimit: AuthBodyLimit,
      schema: {
        summary: 'Log in; 401 with X-Burrow-Two-Factor when a code is needed',
        tags,
        security: [],
        documentedBody: jsonBody(LoginRequest, 'Credentials (optional under proxy and noauth authentication)'),
        response: responses({ 200: textResponse('The JWT', TokenText) }),
      },
    },
    async (request, reply) => {
    let body: LoginRequest | undefined;
    try {
      body = parseJsonBody<LoginRequest>(request.body);
    } catch {
      // Upstream answers an unparsable login body like a failed login.
      body = undefined;
    }
    if (body !== undefined && (typeof body !== 'object' || Array.isArray(body))) body = undefined;
    const token = await auth.login(body, { ip: request.ip, headers: request.headers });
    return reply.header('content-type', 'text/plain').send(token);
  });

  app.post(
    ApiPaths.signup,
    {
      bodyLimit: AuthBodyLimit,
      schema: { summary: 'Create an account, when sign-up is on', tags, security: [], documentedBody: jsonBody(SignupRequest, 'The new account'), response: responses({ 200: textResponse('Created') }) },
    },
    async (request, reply) => {
    const body = parseJsonBody<SignupRequest>(request.body);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('malformed JSON');
    await auth.signup(body, { ip: request.ip, headers: request.headers });
    return sendStatus(reply, 200);
  });

  app.post(ApiPaths.renew, { preHandler: app.requireUser, schema: { summary: 'A fresh JWT for the session', tags, response: responses({ 200: textResponse('The JWT', TokenText) }) } }, async (request, reply) => {
    const token = await auth.renew(request.auth!);
    return reply.header(Headers.renewToken, 'false').header('content-type', 'text/plain').send(token);
  });

  app.post(ApiPaths.logout, { preHandler: app.requireUser, schema: { summary: 'Revoke the presented token', tags, response: responses({ 200: textResponse('Logged out') }) } }, async (request, reply) => {
    await auth.logout(request.auth!);
    return sendStatus(reply, 200);
  });
};
