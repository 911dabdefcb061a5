import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import { ApiPaths, ApiTags, FileResponses, InlineQuery, PreviewParams, WildcardParams, emptyResponse, responses } from '@burrow/protocol';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import type { PreviewsService } from './previews.service.js';
import { sendPreview } from './preview-replies.js';

/** `GET /api/preview/{thumb|big}/*`: a resized image, or the file itself where none is made. */
export const previewRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewsService }> = async (app, { previews }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const inline = queryValue(request, 'inline') === 'true';
    // `/thumb/a/b.jpg`: the first segment is the size, the rest the file.
    const rest = pathAfter(request.url, ApiPaths.preview).slice(1);
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
