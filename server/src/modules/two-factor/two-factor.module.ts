import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiTags,
  RecoveryCodes,
  TokenText,
  TwoFactorEnrolment,
  TwoFactorLoginEnrolled,
  TwoFactorStatus,
  UserIdParams,
  UserTwoFactor,
  emptyResponse,
  responses,
  textResponse,
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

/**
 * Two-factor codes (TOTP). The login asks the service after a right password (wired in the
 * composition root); the routes let a user enrol, confirm, turn it off and replace recovery
 * codes (from a session, never an API token), complete a login with a challenge, and let admins
 * require and reset it.
 */
export const twoFactorModule: FastifyPluginAsyncTypebox<TwoFactorDeps> = async (app, { twoFactor }) => {

  const session = sessionOnly(app);
  const admin = sessionOnly(app, { admin: true });
  const source = (request: FastifyRequest) => ({ client: request.clientAddress });
  const noStore = { 'cache-control': 'no-store' };

  const tags = [ApiTags.twoFactor];
  const withCode = <S extends Record<string, unknown>>(summary: string, success: S) => ({ summary, tags, body: TwoFactorCodeRequest, response: responses(success) });
  const withChallenge = <S extends Record<string, unknown>>(summary: string, success: S) => ({ summary, tags, security: [] as never[], body: TwoFactorChallengeRequest, response: responses(success) });

  app.get(TwoFactorPaths.status, { preHandler: session, schema: { summary: "The caller's two-factor state", tags, response: responses({ 200: TwoFactorStatus }) } }, async (request) => twoFactor.status(request.auth!.user));

  app.post(TwoFactorPaths.enrol, { preHandler: session, schema: { summary: 'A new secret to scan', tags, response: responses({ 200: TwoFactorEnrolment }) } }, async (request, reply) => reply.headers(noStore).send(await twoFactor.enrol(request.auth!.user)));

  app.post(TwoFactorPaths.confirm, { preHandler: session, schema: withCode('Confirm the secret with a code; answers the recovery codes', { 200: RecoveryCodes }) }, async (request, reply) => {
    const { code } = request.body;
    return reply.headers(noStore).send({ recoveryCodes: await twoFactor.confirm(request.auth!.user, code, source(request)) });
  });

  app.post(TwoFactorPaths.disable, { preHandler: session, schema: withCode('Turn two-factor off (a code or a recovery code)', { 204: emptyResponse('Turned off') }) }, async (request, reply) => {
    await twoFactor.disable(request.auth!.user, request.body.code, source(request));
    return sendStatus(reply, 204);
  });

  app.post(TwoFactorPaths.recoveryCodes, { preHandler: session, schema: withCode('Replace the recovery codes', { 200: RecoveryCodes }) }, async (request, reply) => {
    const { code } = request.body;
    return reply.headers(noStore).send({ recoveryCodes: await twoFactor.replaceRecoveryCodes(request.auth!.user, code, source(request)) });
  });

  // Login: the challenge stands in for the session these routes end in.
  app.post(TwoFactorPaths.login, { schema: withChallenge('Complete a login with a code; answers the JWT like /api/login', { 200: textResponse('The JWT', TokenText) }) }, async (request, reply) => {
    const { challenge, code } = request.body;
    const token = await twoFactor.completeLogin(challenge, code, source(request));
    return reply.header('content-type', 'text/plain').send(token);
  });

  app.post(TwoFactorPaths.loginEnrol, { schema: withChallenge('A secret for a user who must enrol before signing in', { 200: TwoFactorEnrolment }) }, async (request, reply) => {
    return reply.headers(noStore).send(await twoFactor.loginEnrol(request.body.challenge));
  });

  app.post(TwoFactorPaths.loginConfirm, { schema: withChallenge('Confirm that secret and sign in', { 200: TwoFactorLoginEnrolled }) }, async (request, reply) => {
    const { challenge, code } = request.body;
    return reply.headers(noStore).send(await twoFactor.loginConfirm(challenge, code, source(request)));
  });

  // Admins.
  app.get(TwoFactorPolicyPath, { preHandler: admin, schema: { summary: 'Whether everyone must use two-factor (admins)', tags, response: responses({ 200: TwoFactorPolicy }) } }, async () => twoFactor.policy());

  app.put(
    TwoFactorPolicyPath,
    { preHandler: admin, schema: { summary: 'Require two-factor of everyone, or not (admins)', tags, body: TwoFactorPolicy, response: responses({ 200: TwoFactorPolicy }) } },
    async (request) => twoFactor.setPolicy(request.body),
  );

  const userPath = userTwoFactorPath(':id');
  app.get(userPath, { preHandler: admin, schema: { summary: "A user's two-factor state (admins)", tags, params: UserIdParams, response: responses({ 200: UserTwoFactor }) } }, async (request) =>
    twoFactor.forUser(Number(request.params.id)),
  );

  app.put(
    userPath,
    { preHandler: admin, schema: { summary: 'Require two-factor of a user, or not (admins)', tags, params: UserIdParams, body: UserTwoFactorUpdate, response: responses({ 204: emptyResponse('Saved') }) } },
    async (request, reply) => {
    await twoFactor.setRequired(Number(request.params.id), request.body.required);
    return sendStatus(reply, 204);
  });

  app.delete(userPath, { preHandler: admin, schema: { summary: "Reset a user's two-factor (admins)", tags, params: UserIdParams, response: responses({ 204: emptyResponse('Reset') }) } }, async (request, reply) => {
    await twoFactor.resetUser(Number(request.params.id));
    return sendStatus(reply, 204);
  });
};
