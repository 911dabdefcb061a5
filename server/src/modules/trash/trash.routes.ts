import type { FastifyPluginAsync } from 'fastify';
import { ApiPaths, RestoreRequest, RestoreResult, TrashList, TrashQuery } from '@burrow/protocol';
import { Type } from '@sinclair/typebox';
import { sendStatus } from '../../plugins/error-handler.js';
import { assertTrashId, type TrashService } from './trash.service.js';

const IdParams = Type.Object({ id: Type.String() });

/**
 * `/api/trash`: the caller's own trash. GET lists it (sorted, a page or the whole list), DELETE
 * empties it; `/{id}` DELETE removes one item for good and `/{id}/restore` POST puts it back.
 */
export const trashRoutes: FastifyPluginAsync<{ trash: TrashService }> = async (app, { trash }) => {
  const guard = app.requireUser;

  app.get(ApiPaths.trash, { preHandler: guard, schema: { querystring: TrashQuery, response: { 200: TrashList } } }, async (request) => {
    const query = request.query as TrashQuery;
    return trash.list(request.auth!.user, {
      sort: query.sort ?? 'deleted',
      // Newest first unless asked otherwise; names read best A to Z.
      asc: query.asc !== undefined ? query.asc === 'true' : query.sort === 'name',
      offset: Number(query.offset ?? 0),
      limit: query.limit !== undefined ? Number(query.limit) : undefined,
    });
  });

  app.delete(ApiPaths.trash, { preHandler: guard }, async (request, reply) => {
    await trash.empty(request.auth!.user);
    return sendStatus(reply, 204);
  });

  app.delete(`${ApiPaths.trash}/:id`, { preHandler: guard, schema: { params: IdParams } }, async (request, reply) => {
    await trash.purge(request.auth!.user, assertTrashId((request.params as { id: string }).id));
    return sendStatus(reply, 204);
  });

  app.post(
    `${ApiPaths.trash}/:id/restore`,
    { preHandler: guard, schema: { params: IdParams, body: Type.Union([RestoreRequest, Type.Null()]), response: { 200: RestoreResult } } },
    async (request) => {
      const id = assertTrashId((request.params as { id: string }).id);
      return { path: await trash.restore(request.auth!.user, id, (request.body as RestoreRequest | null) ?? {}) };
    },
  );
};
