import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPaths } from '@burrow/protocol';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import type { PreviewsService } from './previews.service.js';
import { sendPreview } from './preview-replies.js';

/** `GET /api/preview/{thumb|big}/*`: a resized image, or the file itself where none is made. */
export const previewRoutes: FastifyPluginAsync<{ previews: PreviewsService }> = async (app, { previews }) => {
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

  app.route({ method: ['GET', 'HEAD'], url: `${ApiPaths.preview}/:size`, preHandler: app.requireUser, handler });
  app.route({ method: ['GET', 'HEAD'], url: `${ApiPaths.preview}/:size/*`, preHandler: app.requireUser, handler });
};
