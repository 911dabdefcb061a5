import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, RestoreRequest, RestoreResult, TrashIdParams, TrashList, TrashQuery, emptyResponse, responses } from '@burrow/protocol';
import { Type } from '@sinclair/typebox';
import { sendStatus } from '../../plugins/error-handler.js';
import { assertTrashId, type TrashService } from './trash.service.js';

/**
 * `/api/trash`: the caller's own trash. GET lists it (sorted, a page or the whole list), DELETE
 * empties it; `/{id}` DELETE removes one item for good and `/{id}/restore` POST puts it back.
 */
export const trashRoutes: FastifyPluginAsyncTypebox<{ trash: TrashService }> = async (app, { trash }) => {
  const guard = app.requireUser;

  const tags = [ApiTags.trash];
  app.get(ApiPaths.trash, { preHandler: guard, schema: { summary: "The caller's trash, sorted, whole or a page", tags, querystring: TrashQuery, response: responses({ 200: TrashList }) } }, async (request) => {
    const query = request.query;
    return trash.list(request.auth!.user, {
      sort: query.sort ?? 'deleted',
      // Newest first unless asked otherwise; names read best A to Z.
      asc: query.asc !== undefined ? query.asc === 'true' : query.sort === 'name',
      offset: Number(query.offset ?? 0),
      limit: query.limit !== undefined ? Number(query.limit) : undefined,
    });
  });

  app.delete(ApiPaths.trash, { preHandler: guard, schema: { summary: "Empty the caller's trash", tags, response: responses({ 204: emptyResponse('Emptied') }) } }, async (request, reply) => {
    await trash.empty(request.auth!.user);
    return sendStatus(reply, 204);
  });

  app.delete(
    `${ApiPaths.trash}/:id`,
    { preHandler: guard, schema: { summary: 'Remove one item for good', tags, params: TrashIdParams, response: responses({ 204: emptyResponse('Removed') }) } },
    async (request, reply) => {
    await trash.purge(request.auth!.user, assertTrashId(request.params.id));
    return sendStatus(reply, 204);
  });

  app.post(
    `${ApiPaths.trash}/:id/restore`,
    {
      preHandler: guard,
      schema: { summary: 'Put an item back, where it was or into `destination`', tags, params: TrashIdParams, body: Type.Union([RestoreRequest, Type.Null()]), response: responses({ 200: RestoreResult }) },
    },
    async (request) => {
      const id = assertTrashId(request.params.id);
      return { path: await trash.restore(request.auth!.user, id, request.body ?? {}) };
    },
  );
};
