import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiTags,
  FileRequestInfo,
  FileRequestParams,
  FileRequestUploadParams,
  Headers,
  PublicSharePaths,
  ShareTokenParam,
  ShareTokenQuery,
  TusChunkBody,
  TusHeaders,
  TusVersion,
  emptyResponse,
  responses,
  statusLine,
  textResponse,
} from '@burrow/protocol';
import { AppError } from '../../errors.js';
import { queryValue } from '../../http/query.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { drainBody } from '../uploads/body-writer.js';
import { parseContentLength } from '../uploads/tus-headers.js';
import type { ShareCredentials } from './share-access.js';
import type { FileRequests } from './file-requests.service.js';

/** A refused body is read and thrown away up to this size so the connection stays usable. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

type Params = { hash: string; id?: string };

function credentialsOf(request: FastifyRequest): ShareCredentials {
  const header = request.headers[Headers.sharePassword];
  return { token: queryValue(request, ShareTokenParam), password: Array.isArray(header) ? header[0] : header, clientAddress: request.clientAddress };
}

async function settleBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.raw.readableEnded) return;
  if (!(await drainBody(request.raw, DRAIN_LIMIT_BYTES))) reply.header('connection', 'close');
}

type Handler = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * Deals with the unread body before an error leaves, and keeps the reason of a refusal by the
 * link's limits (403, 413) in the body, where the uploader's client shows it.
 */
function settling(handler: Handler): Handler {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      await settleBody(request, reply);
      if (error instanceof AppError && (error.status === 403 || error.status === 413) && error.detail) {
        return reply
          .code(error.status)
          .header('content-type', 'text/plain; charset=utf-8')
          .header('x-content-type-options', 'nosniff')
          .send(`${statusLine(error.status)} (${error.detail})\n`);
      }
      throw error;
    }
  };
}

/**
 * `/api/public/upload/{hash}[/{id}]`: uploads through an upload-only link, in the tus subset the
 * app's own uploads speak (creation, HEAD, PATCH). No DELETE: an abandoned upload expires.
 */
export const fileRequestsRoutes: FastifyPluginAsync<{ requests: FileRequests; baseURL: string }> = async (app, { requests, baseURL }) => {
  // PATCH bodies can be large: never parse or buffer them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header(TusHeaders.resumable, TusVersion);
    return payload;
  });

  const base = PublicSharePaths.upload;

  const tags = [ApiTags.publicShares];
  // No login: the link (and its password or token, when protected) is the credential.
  const security: never[] = [];
  app.get<{ Params: Params }>(
    `${base}/:hash`,
    { schema: { summary: "A file request's note and limits", tags, security, params: FileRequestParams, querystring: ShareTokenQuery, response: responses({ 200: FileRequestInfo }) } },
    async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return requests.info(request.params.hash, credentialsOf(request));
  });

  app.post<{ Params: Params }>(
    `${base}/:hash`,
    {
      schema: {
        summary: 'Start a tus upload through a file request; the name comes from Upload-Metadata (filename)',
        tags,
        security,
        params: FileRequestParams,
        querystring: ShareTokenQuery,
        response: responses({ 201: textResponse('Created; Location is the upload URL') }),
      },
    },
    settling(async (request, reply) => {
      const { hash } = request.params;
      const created = await requests.create(hash, credentialsOf(request), {
        uploadLength: request.headers[TusHeaders.uploadLength],
        deferLength: request.headers['upload-defer-length'],
        metadata: request.headers[TusHeaders.uploadMetadata],
      });
      await settleBody(request, reply);
      reply.header('location', `${baseURL}${base}/${encodeURIComponent(hash)}/${created.id}`);
      return sendStatus(reply, 201);
    }),
  );

  app.route<{ Params: Params }>({
    method: 'HEAD',
    url: `${base}/:hash/:id`,
    schema: { summary: 'Progress of an upload through a file request', tags, security, params: FileRequestUploadParams, querystring: ShareTokenQuery, response: responses({ 200: textResponse('The upload exists; Upload-Offset and Upload-Length') }) },
    handler: settling(async (request, reply) => {
      const progress = await requests.status(request.params.hash, credentialsOf(request), request.params.id ?? '');
      reply.header(TusHeaders.uploadOffset, String(progress.offset)).header(TusHeaders.uploadLength, String(progress.length)).header('cache-control', 'no-store');
      return sendStatus(reply, 200);
    }),
  });

  app.patch<{ Params: Params }>(
    `${base}/:hash/:id`,
    {
      schema: {
        summary: 'Append bytes to an upload through a file request',
        tags,
        security,
        params: FileRequestUploadParams,
        querystring: ShareTokenQuery,
        documentedBody: TusChunkBody,
        response: responses({ 204: emptyResponse('Appended; Upload-Offset is the new offset') }),
      },
    },
    settling(async (request, reply) => {
      const progress = await requests.append(request.params.hash, credentialsOf(request), request.params.id ?? '', {
        contentType: request.headers['content-type'],
        uploadOffset: request.headers[TusHeaders.uploadOffset],
        contentLength: parseContentLength(request.headers['content-length']),
        body: request.raw,
      });
      await settleBody(request, reply);
      reply.header(TusHeaders.uploadOffset, String(progress.offset));
      return sendStatus(reply, 204);
    }),
  );
};
