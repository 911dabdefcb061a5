import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, InlineQuery, WildcardParams, emptyResponse, mediaResponse, responses } from '@burrow/protocol';
import { contentDisposition } from '../downloads/content-disposition.js';
import { RAW_CSP } from '../downloads/inline-policy.js';
import { queryValue, requestVirtualPath } from '../downloads/request-input.js';
import type { SubtitlesService } from './subtitles.service.js';

/** Sends a converted subtitle as WebVTT. Public share links use it too. */
export function sendSubtitle(reply: FastifyReply, subtitle: { name: string; vtt: string }, inline: boolean): FastifyReply {
  return reply
    .header('content-type', 'text/vtt; charset=utf-8')
    .header('content-security-policy', RAW_CSP)
    .header('cache-control', 'private')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', subtitle.name))
    .send(subtitle.vtt);
}

/** `GET /api/subtitle/*`: a subtitle file converted to WebVTT for the video player. */
export const subtitleRoutes: FastifyPluginAsyncTypebox<{ subtitles: SubtitlesService }> = async (app, { subtitles }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const inline = queryValue((request.query as { inline?: unknown }).inline) === 'true';
    return sendSubtitle(reply, await subtitles.subtitle(user, requestVirtualPath(request.url, ApiPaths.subtitle)), inline);
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
