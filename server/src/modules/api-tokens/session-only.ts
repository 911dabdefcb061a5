import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../../errors.js';

/**
 * preHandler: a signed-in session, not a personal API token. Tokens exist to skip the second
 * factor, so what guards the account itself (its tokens, its two-factor) asks for a real login.
 */
export function sessionOnly(app: FastifyInstance, options: { admin?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await (options.admin ? app.requireAdmin : app.requireUser)(request, reply);
    if (request.auth?.apiToken) throw forbidden('an API token cannot do this; sign in');
  };
}
