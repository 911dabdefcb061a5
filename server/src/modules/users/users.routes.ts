import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiPaths, UserDeleteRequest, UserWriteRequest } from '@burrow/protocol';
import type { UsersService } from './users.service.js';
import type { AuthService } from '../auth/auth.service.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { badRequest } from '../../errors.js';

const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,10}$' }) });

export const usersRoutes: FastifyPluginAsync<{ users: UsersService; auth: AuthService }> = async (app, { users, auth }) => {
  app.get(ApiPaths.users, { preHandler: app.requireAdmin }, async (request) => users.list(request.auth!.user));

  app.post(ApiPaths.users, { preHandler: app.requireAdmin, schema: { body: UserWriteRequest } }, async (request, reply) => {
    const id = await users.create(request.auth!.user, request.body as UserWriteRequest, { client: request.clientAddress });
    reply.header('location', `/settings/users/${id}`);
    return sendStatus(reply, 201);
  });

  app.get(`${ApiPaths.users}/:id`, { preHandler: app.requireUser, schema: { params: IdParams } }, async (request) => {
    const { id } = request.params as { id: string };
    return users.get(request.auth!.user, Number(id));
  });

  app.put(`${ApiPaths.users}/:id`, { preHandler: app.requireUser, schema: { params: IdParams, body: UserWriteRequest } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const requester = request.auth!.user;
    const result = await users.update(requester, Number(id), request.body as UserWriteRequest, { client: request.clientAddress, keepToken: request.auth!.jti });
    if (result.user.id === requester.id) {
      reply.header('x-renew-token', 'true');
      // A password change revoked every other token of this user; the token of this session stays
      // valid (filebrowser's client renews with it), and Burrow's app takes the fresh one offered here.
      if (result.passwordChanged) reply.header('x-auth-token', await auth.issue(result.user));
    }
    return sendStatus(reply, 200);
  });

  // The body is optional JSON ({"current_password"}); filebrowser's client sends it as text.
  app.delete(`${ApiPaths.users}/:id`, { preHandler: app.requireUser, config: { jsonBody: true }, schema: { params: IdParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = request.body as UserDeleteRequest | undefined;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw badRequest('malformed JSON');
    await users.remove(request.auth!.user, Number(id), body?.current_password, { client: request.clientAddress });
    return sendStatus(reply, 200);
  });
  void UserDeleteRequest;
};
