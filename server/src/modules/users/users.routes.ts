import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiPaths, ApiTags, User, UserDeleteRequest, UserIdParams, UserWriteRequest, jsonBody, responses, textResponse } from '@burrow/protocol';
import type { UsersService } from './users.service.js';
import type { AuthService } from '../auth/auth.service.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { badRequest } from '../../errors.js';

export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService; auth: AuthService }> = async (app, { users, auth }) => {
  const tags = [ApiTags.users];
  app.get(ApiPaths.users, { preHandler: app.requireAdmin, schema: { summary: 'Every user (admins)', tags, response: responses({ 200: Type.Array(User) }) } }, async (request) => users.list(request.auth!.user));

  app.post(
    ApiPaths.users,
    { preHandler: app.requireAdmin, schema: { summary: 'Create a user (admins); Location names it', tags, body: UserWriteRequest, response: responses({ 201: textResponse('Created') }) } },
    async (request, reply) => {
    const id = await users.create(request.auth!.user, request.body, { client: request.clientAddress });
    reply.header('location', `/settings/users/${id}`);
    return sendStatus(reply, 201);
  });

  app.get(`${ApiPaths.users}/:id`, { preHandler: app.requireUser, schema: { summary: 'One user (admins, or the user themselves)', tags, params: UserIdParams, response: responses({ 200: User }) } }, async (request) => {
    const { id } = request.params;
    return users.get(request.auth!.user, Number(id));
  });

  app.put(
    `${ApiPaths.users}/:id`,
    {
      preHandler: app.requireUser,
      schema: {
        summary: 'Change the fields named in `which` (admins, or the user for their own preferences)',
        tags,
        params: UserIdParams,
        body: UserWriteRequest,
        response: responses({ 200: textResponse('Saved; X-Renew-Token (and X-Auth-Token after a password change) when the caller changed their own record') }),
      },
    },
    async (request, reply) => {
    const { id } = request.params;
    const requester = request.auth!.user;
    const result = await users.update(requester, Number(id), request.body, { client: request.clientAddress, keepToken: request.auth!.jti });
    if (result.user.id === requester.id) {
      reply.header('x-renew-token', 'true');
      // A password change revoked every other token of this user; the token of this session stays
      // valid (filebrowser's client renews with it), and Burrow's app takes the fresh one offered here.
      if (result.passwordChanged) reply.header('x-auth-token', await auth.issue(result.user));
    }
    return sendStatus(reply, 200);
  });

  // The body is optional JSON ({"current_password"}); filebrowser's client sends it as text.
  app.delete(
    `${ApiPaths.users}/:id`,
    {
      preHandler: app.requireUser,
      config: { jsonBody: true },
      schema: {
        summary: 'Delete a user',
        tags,
        params: UserIdParams,
        documentedBody: jsonBody(UserDeleteRequest, 'The caller\'s current password, when deleting themselves under json authentication'),
        response: responses({ 200: textResponse('Deleted') }),
      },
    },
    async (request, reply) => {
    const { id } = request.params;
    const body: unknown = request.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw badRequest('malformed JSON');
    const given: unknown = body === undefined ? undefined : Reflect.get(body, 'current_password');
    const currentPassword = typeof given === 'string' ? given : undefined;
    await users.remove(request.auth!.user, Number(id), currentPassword, { client: request.clientAddress });
    return sendStatus(reply, 200);
  });
};
