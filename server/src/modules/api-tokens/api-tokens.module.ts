import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiTokenCreateRequest, ApiTokensPath } from '@burrow/protocol';
import { sendStatus } from '../../plugins/error-handler.js';
import type { ApiTokensService } from './api-tokens.service.js';
import { sessionOnly } from './session-only.js';

const IdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }) });

/**
 * Personal API tokens: `/api/tokens` lists (GET) and creates (POST) the caller's tokens,
 * `/api/tokens/{id}` revokes one (DELETE); all from a session only. The auth service checks
 * presented tokens through its service, and a deleted user's tokens are deleted with them (both
 * wired in the composition root).
 */
export type ApiTokensDeps = { apiTokens: ApiTokensService };

export const apiTokensModule: FastifyPluginAsync<ApiTokensDeps> = async (app, { apiTokens: tokens }) => {
  const guard = sessionOnly(app);

  app.get(ApiTokensPath, { preHandler: guard }, async (request) => tokens.list(request.auth!.user));

  app.post(ApiTokensPath, { preHandler: guard, schema: { body: ApiTokenCreateRequest } }, async (request, reply) => {
    const created = await tokens.create(request.auth!.user, request.body as ApiTokenCreateRequest);
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  app.delete(`${ApiTokensPath}/:id`, { preHandler: guard, schema: { params: IdParams } }, async (request, reply) => {
    await tokens.revoke(request.auth!.user, (request.params as { id: string }).id);
    return sendStatus(reply, 204);
  });
};
