import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPaths } from '@burrow/protocol';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import type { SubtitlesService } from './subtitles.service.js';
import { sendSubtitle } from './preview-replies.js';

/** `GET /api/subtitle/*`: a subtitle file converted to WebVTT for the video player. */
export const subtitleRoutes: FastifyPluginAsync<{ subtitles: SubtitlesService }> = async (app, { subtitles }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const inline = queryValue(request, 'inline') === 'true';
    return sendSubtitle(reply, await subtitles.subtitle(user, pathAfter(request.url, ApiPaths.subtitle)), inline);
  }
  for (const url of [ApiPaths.subtitle, `${ApiPaths.subtitle}/*`]) app.get(url, { preHandler: app.requireUser }, handler);
};
