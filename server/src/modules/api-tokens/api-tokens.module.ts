import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiToken, ApiTokenCreateRequest, ApiTokenCreated, ApiTokenIdParams, ApiTags, ApiTokensPath, emptyResponse, responses } from '@burrow/protocol';
import { sendStatus } from '../../plugins/error-handler.js';
import type { ApiTokensService } from './api-tokens.service.js';
import { sessionOnly } from './session-only.js';

/**
 * Personal API tokens: `/api/tokens` lists (GET) and creates (POST) the caller's tokens,
 * `/api/tokens/{id}` revokes one (DELETE); all from a session only. The auth service checks
 * presented tokens through its service, and a deleted user's tokens are deleted with them (both
 * wired in the composition root).
 */
export type ApiTokensDeps = { apiTokens: ApiTokensService };

export const apiTokensModule: FastifyPluginAsyncTypebox<ApiTokensDeps> = async (app, { apiTokens: tokens }) => {
  const guard = sessionOnly(app);

  const tags = [ApiTags.apiTokens];
  app.get(ApiTokensPath, { preHandler: guard, schema: { summary: "The caller's personal API tokens (from a session only)", tags, response: responses({ 200: Type.Array(ApiToken) }) } }, async (request) => tokens.list(request.auth!.user));

  app.post(
    ApiTokensPath,
    { preHandler: guard, schema: { summary: 'Create a token; its secret is shown this once', tags, body: ApiTokenCreateRequest, response: responses({ 201: ApiTokenCreated }) } },
    async (request, reply) => {
    const created = await tokens.create(request.auth!.user, request.body);
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  app.delete(
    `${ApiTokensPath}/:id`,
    { preHandler: guard, schema: { summary: 'Revoke a token', tags, params: ApiTokenIdParams, response: responses({ 204: emptyResponse('Revoked') }) } },
    async (request, reply) => {
    await tokens.revoke(request.auth!.user, request.params.id);
    return sendStatus(reply, 204);
  });
};
