import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPaths, ApiTags, OverrideQuery, TusChunkBody, TusHeaders, TusVersion, WildcardParams, emptyResponse, responses, statusLine, textResponse, tusLocation } from '@burrow/protocol';
import { AppError } from '../../errors.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { pathAfter } from '../../http/request-path.js';
import { drainBody } from './body-writer.js';
import { DEFERRED_LENGTH, isLengthKnown, parseContentLength, parseOverride } from './tus-headers.js';
import type { UploadsService } from './uploads.service.js';

/** A rejected body is read and thrown away up to this size so the connection stays usable. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

const ROUTES = [ApiPaths.tus, `${ApiPaths.tus}/*`];

/** Consumes what is left of the body (bounded); past the bound the connection is closed instead. */
async function settleBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.raw.readableEnded) return;
  const drained = await drainBody(request.raw, DRAIN_LIMIT_BYTES);
  if (!drained) reply.header('connection', 'close');
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * Errors leave through the error handler, but only after the unread body is dealt with. A 413
 * that says why (the disk cannot hold the upload) keeps its reason in the body, where tus
 * clients show it, as 400s do.
 */
function settlingBody(handler: Handler): Handler {
  return async (request, reply) => {
    try {
      const result = await handler(request, reply);
      return result;
    } catch (error) {
      await settleBody(request, reply);
      if (error instanceof AppError && error.status === 413 && error.detail) {
        return reply.code(413).header('content-type', 'text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(`${statusLine(413)} (${error.detail})\n`);
      }
      throw error;
    }
  };
}

/**
 * The length headers of a HEAD. A deferred upload says so (tus 1.0); one created without any
 * length header gets `Upload-Length: -1`, as filebrowser 2.31 answered: its client needs a number
 * there, and -1 never equals an offset, so it goes on sending.
 */
function lengthHeaders(reply: FastifyReply, length: number): void {
  if (isLengthKnown(length)) reply.header(TusHeaders.uploadLength, String(length));
  else if (length === DEFERRED_LENGTH) reply.header(TusHeaders.uploadDeferLength, '1');
  else reply.header(TusHeaders.uploadLength, '-1');
}

/** `/api/tus{path}`: the tus core subset, as tus-js-client and filebrowser's front end use it. */
export const tusRoutes: FastifyPluginAsync<{ uploads: UploadsService; baseURL: string }> = async (app, { uploads, baseURL }) => {
  // PATCH bodies can be gigabytes: never parse or buffer them, the service streams request.raw.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header(TusHeaders.resumable, TusVersion);
    return payload;
  });

  const tags = [ApiTags.uploads];
  for (const url of ROUTES) {
    const params = url.endsWith('/*') ? { params: WildcardParams } : {};
    app.post(
      url,
      {
        preHandler: app.requireUser,
        schema: {
          summary: 'Start a resumable (tus 1.0) upload of a file at this path; Upload-Length or Upload-Defer-Length required',
          tags,
          ...params,
          querystring: OverrideQuery,
          response: responses({ 201: textResponse('Created; Location is the upload URL') }),
        },
      },
      settlingBody(async (request, reply) => {
        const created = await uploads.create(request.auth!.user, pathAfter(request.url, ApiPaths.tus), {
          uploadLength: request.headers[TusHeaders.uploadLength],
          deferLength: request.headers[TusHeaders.uploadDeferLength],
          override: parseOverride(request.query),
        });
        await settleBody(request, reply);
        reply.header('location', tusLocation(baseURL, created.virtual));
        return sendStatus(reply, 201);
      }),
    );

    app.route({
      method: ['HEAD', 'GET'],
      url,
      preHandler: app.requireUser,
      schema: { summary: 'Progress of an upload: Upload-Offset and Upload-Length', tags, ...params, response: responses({ 200: textResponse('The upload exists') }) },
      handler: settlingBody(async (request, reply) => {
        const progress = await uploads.status(request.auth!.user, pathAfter(request.url, ApiPaths.tus));
        reply.header(TusHeaders.uploadOffset, String(progress.offset)).header('cache-control', 'no-store');
        lengthHeaders(reply, progress.length);
        return sendStatus(reply, 200);
      }),
    });

    app.patch(
      url,
      {
        preHandler: app.requireUser,
        schema: {
          summary: 'Append bytes at Upload-Offset; the file is placed once complete',
          tags,
          ...params,
          documentedBody: TusChunkBody,
          response: responses({ 204: emptyResponse('Appended; Upload-Offset is the new offset') }),
        },
      },
      settlingBody(async (request, reply) => {
        const progress = await uploads.append(request.auth!.user, pathAfter(request.url, ApiPaths.tus), {
          contentType: request.headers['content-type'],
          uploadOffset: request.headers[TusHeaders.uploadOffset],
          uploadLength: request.headers[TusHeaders.uploadLength],
          contentLength: parseContentLength(request.headers['content-length']),
          body: request.raw,
        });
        await settleBody(request, reply);
        reply.header(TusHeaders.uploadOffset, String(progress.offset));
        return sendStatus(reply, 204);
      }),
    );

    app.delete(
      url,
      { preHandler: app.requireUser, schema: { summary: 'Cancel an upload', tags, ...params, response: responses({ 204: emptyResponse('Cancelled') }) } },
      settlingBody(async (request, reply) => {
        await uploads.cancel(request.auth!.user, pathAfter(request.url, ApiPaths.tus));
        await settleBody(request, reply);
        return sendStatus(reply, 204);
      }),
    );

    app.route({
      method: ['PUT', 'OPTIONS'],
      url,
      schema: { hide: true, ...params, response: responses({}) },
      handler: async (request, reply) => {
        await settleBody(request, reply);
        return sendStatus(reply, 405);
      },
    });
  }
};
