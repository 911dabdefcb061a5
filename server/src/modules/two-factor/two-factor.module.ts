import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  TwoFactorChallengeRequest,
  TwoFactorCodeRequest,
  TwoFactorPaths,
  TwoFactorPolicy,
  TwoFactorPolicyPath,
  UserTwoFactorUpdate,
  userTwoFactorPath,
} from '@burrow/protocol';
import { sendStatus } from '../../plugins/error-handler.js';
import { sessionOnly } from '../api-tokens/session-only.js';
import type { TwoFactorService } from './two-factor.service.js';

export type TwoFactorDeps = { twoFactor: TwoFactorService };

const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,10}$' }) });

/**
 * Two-factor codes (TOTP). The login asks the service after a right password (wired in the
 * composition root); the routes let a user enrol, confirm, turn it off and replace recovery
 * codes (from a session, never an API token), complete a login with a challenge, and let admins
 * require and reset it.
 */
export const twoFactorModule: FastifyPluginAsync<TwoFactorDeps> = async (app, { twoFactor }) => {

  const session = sessionOnly(app);
  const admin = sessionOnly(app, { admin: true });
  const source = (request: FastifyRequest) => ({ client: request.clientAddress });
  const noStore = { 'cache-control': 'no-store' };

  app.get(TwoFactorPaths.status, { preHandler: session }, async (request) => twoFactor.status(request.auth!.user));

  app.post(TwoFactorPaths.enrol, { preHandler: session }, async (request, reply) => reply.headers(noStore).send(await twoFactor.enrol(request.auth!.user)));

  app.post(TwoFactorPaths.confirm, { preHandler: session, schema: { body: TwoFactorCodeRequest } }, async (request, reply) => {
    const { code } = request.body as TwoFactorCodeRequest;
    return reply.headers(noStore).send({ recoveryCodes: await twoFactor.confirm(request.auth!.user, code, source(request)) });
  });

  app.post(TwoFactorPaths.disable, { preHandler: session, schema: { body: TwoFactorCodeRequest } }, async (request, reply) => {
    await twoFactor.disable(request.auth!.user, (request.body as TwoFactorCodeRequest).code, source(request));
    return sendStatus(reply, 204);
  });

  app.post(TwoFactorPaths.recoveryCodes, { preHandler: session, schema: { body: TwoFactorCodeRequest } }, async (request, reply) => {
    const { code } = request.body as TwoFactorCodeRequest;
    return reply.headers(noStore).send({ recoveryCodes: await twoFactor.replaceRecoveryCodes(request.auth!.user, code, source(request)) });
  });

  // Login: the challenge stands in for the session these routes end in.
  app.post(TwoFactorPaths.login, { schema: { body: TwoFactorChallengeRequest } }, async (request, reply) => {
    const { challenge, code } = request.body as TwoFactorChallengeRequest;
    const token = await twoFactor.completeLogin(challenge, code, source(request));
    return reply.header('content-type', 'text/plain').send(token);
  });

  app.post(TwoFactorPaths.loginEnrol, { schema: { body: TwoFactorChallengeRequest } }, async (request, reply) => {
    return reply.headers(noStore).send(await twoFactor.loginEnrol((request.body as TwoFactorChallengeRequest).challenge));
  });

  app.post(TwoFactorPaths.loginConfirm, { schema: { body: TwoFactorChallengeRequest } }, async (request, reply) => {
    const { challenge, code } = request.body as TwoFactorChallengeRequest;
    return reply.headers(noStore).send(await twoFactor.loginConfirm(challenge, code, source(request)));
  });

  // Admins.
  app.get(TwoFactorPolicyPath, { preHandler: admin }, async () => twoFactor.policy());

  app.put(TwoFactorPolicyPath, { preHandler: admin, schema: { body: TwoFactorPolicy } }, async (request) => twoFactor.setPolicy(request.body as TwoFactorPolicy));

  const userPath = userTwoFactorPath(':id');
  app.get(userPath, { preHandler: admin, schema: { params: IdParams } }, async (request) => twoFactor.forUser(Number((request.params as { id: string }).id)));

  app.put(userPath, { preHandler: admin, schema: { params: IdParams, body: UserTwoFactorUpdate } }, async (request, reply) => {
    await twoFactor.setRequired(Number((request.params as { id: string }).id), (request.body as UserTwoFactorUpdate).required);
    return sendStatus(reply, 204);
  });

  app.delete(userPath, { preHandler: admin, schema: { params: IdParams } }, async (request, reply) => {
    await twoFactor.resetUser(Number((request.params as { id: string }).id));
    return sendStatus(reply, 204);
  });
};
