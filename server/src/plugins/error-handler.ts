import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codeForStatus } from '@burrow/protocol';
import { AppError, fromSystemError } from '../errors.js';
import { sendStatus } from '../http/status.js';

// The status body is an HTTP helper; it stays importable from here for the routes that use it.
export { sendStatus };

/** Maps any thrown value to an AppError; unknown errors become `internal`. */
export function toAppError(error: unknown): AppError {
  const system = fromSystemError(error);
  if (system) return system;
  const fastifyError = error as FastifyError;
  if (fastifyError?.validation) return new AppError('bad_request', fastifyError.message);
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('bad_request', 'malformed JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', 'invalid content length');
    default:
      break;
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return new AppError('bad_request', 'malformed JSON');
  }
  const status = fastifyError?.statusCode;
  // Other client errors keep their status where the taxonomy knows it (404, 405, 416…).
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError(codeForStatus(status));
  return new AppError('internal');
}

/** The one error translator of the server. */
export const errorHandlerPlugin = fp(async (app) => {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      request.log.error({ err: error, reqId: request.id }, 'request failed');
    }
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
    return sendStatus(reply, appError.status, appError.status === 400 ? appError.detail : undefined);
  });
});
