import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, InlineQuery, WildcardParams, emptyResponse, mediaResponse, responses } from '@burrow/protocol';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import type { SubtitlesService } from './subtitles.service.js';
import { sendSubtitle } from './preview-replies.js';

/** `GET /api/subtitle/*`: a subtitle file converted to WebVTT for the video player. */
export const subtitleRoutes: FastifyPluginAsyncTypebox<{ subtitles: SubtitlesService }> = async (app, { subtitles }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const inline = queryValue(request, 'inline') === 'true';
    return sendSubtitle(reply, await subtitles.subtitle(user, pathAfter(request.url, ApiPaths.subtitle)), inline);
  }
  for (const url of [ApiPaths.subtitle, `${ApiPaths.subtitle}/*`]) {
    const schema = {
      summary: 'A subtitle file (SRT, ASS, VTT…) converted to WebVTT',
      tags: [ApiTags.downloads],
      ...(url.endsWith('/*') ? { params: WildcardParams } : {}),
      querystring: InlineQuery,
      response: responses({ 200: mediaResponse('The subtitle as WebVTT', ['text/vtt']), 202: emptyResponse('The user may not download') }),
    };
    app.get(url, { preHandler: app.requireUser, schema }, handler);
  }
};
