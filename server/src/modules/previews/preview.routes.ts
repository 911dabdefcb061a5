import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import { ApiPaths, ApiTags, FileResponses, InlineQuery, PreviewParams, WildcardParams, emptyResponse, responses } from '@burrow/protocol';
import { contentDisposition } from '../downloads/content-disposition.js';
import { evaluatePreconditions } from '../downloads/http-conditional.js';
import { queryValue, requestVirtualPath } from '../downloads/request-input.js';
import { sendFile } from '../downloads/send-file.js';
import { sendStatus } from '../../plugins/error-handler.js';
import type { PreviewResult, PreviewsService } from './previews.service.js';

/** Sends a preview result: the file itself, or the rendering with its validators. Public share links use it too. */
export async function sendPreview(request: FastifyRequest, reply: FastifyReply, result: PreviewResult, inline: boolean): Promise<FastifyReply> {
  if (result.kind === 'raw') return sendFile(request, reply, result.resolved, { inline });

  reply.header('cache-control', 'private');
  reply.header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', result.name));
  reply.header('etag', result.etag);
  reply.header('last-modified', new Date(result.mtimeMs).toUTCString());
  const precondition = evaluatePreconditions(request.headers, { etag: result.etag, mtimeMs: result.mtimeMs });
  if (precondition === 304) return reply.code(304).send();
  if (precondition === 412) return sendStatus(reply, 412);
  return reply.type(result.contentType).send(result.data);
}

/** `GET /api/preview/{thumb|big}/*`: a resized image, or the file itself where none is made. */
export const previewRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewsService }> = async (app, { previews }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const inline = queryValue((request.query as { inline?: unknown }).inline) === 'true';
    // `/thumb/a/b.jpg`: the first segment is the size, the rest the file.
    const rest = requestVirtualPath(request.url, ApiPaths.preview).slice(1);
    const slash = rest.indexOf('/');
    const size = slash === -1 ? rest : rest.slice(0, slash);
    const decoded = slash === -1 ? '/' : rest.slice(slash);
    return sendPreview(request, reply, await previews.preview(user, size, decoded), inline);
  }

  const schema = (params: TSchema) => ({
    summary: 'A resized image (thumb or big) of an image or video, or the file itself where none is made',
    tags: [ApiTags.downloads],
    params,
    querystring: InlineQuery,
    response: responses({ ...FileResponses, 202: emptyResponse('The user may not download') }),
  });
  app.route({ method: ['GET', 'HEAD'], url: `${ApiPaths.preview}/:size`, preHandler: app.requireUser, schema: schema(PreviewParams), handler });
  app.route({ method: ['GET', 'HEAD'], url: `${ApiPaths.preview}/:size/*`, preHandler: app.requireUser, schema: schema(Type.Composite([PreviewParams, WildcardParams])), handler });
};
