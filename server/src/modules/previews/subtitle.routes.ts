import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPaths } from '@burrow/protocol';
import { contentDisposition } from '../../http/content-disposition.js';
import { RAW_CSP } from '../../http/inline-policy.js';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
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
export const subtitleRoutes: FastifyPluginAsync<{ subtitles: SubtitlesService }> = async (app, { subtitles }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const inline = queryValue(request, 'inline') === 'true';
    return sendSubtitle(reply, await subtitles.subtitle(user, pathAfter(request.url, ApiPaths.subtitle)), inline);
  }
  for (const url of [ApiPaths.subtitle, `${ApiPaths.subtitle}/*`]) app.get(url, { preHandler: app.requireUser }, handler);
};
