import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, DownloadQuery, FileResponses, WildcardParams, emptyResponse, responses } from '@burrow/protocol';
import type { DownloadsService } from './downloads.service.js';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import { sendFile } from '../../http/send-file.js';
import { parseFilesParam } from './request-input.js';
import { sendArchive } from './send-archive.js';

/**
 * `GET /api/raw/*`: a file as is, or a folder (or a `files=` selection in it) as an archive.
 * HEAD is routed here too so it can answer from the headers alone instead of reading the file.
 */
export const rawRoutes: FastifyPluginAsyncTypebox<{ downloads: DownloadsService }> = async (app, { downloads }) => {
  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const user = request.auth!.user;
    if (!user.perm.download) return reply.code(202).send();
    const { scope, resolved } = await downloads.resolveExisting(user, pathAfter(request.url, ApiPaths.raw));
    if (resolved.stat.isDirectory()) {
      return sendArchive(reply, scope, resolved.virtual, parseFilesParam(queryValue(request, 'files')), queryValue(request, 'algo'));
    }
    return sendFile(request, reply, resolved, { inline: queryValue(request, 'inline') === 'true' });
  }

  for (const url of [ApiPaths.raw, `${ApiPaths.raw}/*`]) {
    const schema = {
      summary: 'Download a file, or a folder (or a `files=` selection in it) as an archive',
      tags: [ApiTags.downloads],
      ...(url.endsWith('/*') ? { params: WildcardParams } : {}),
      querystring: DownloadQuery,
      response: responses({ ...FileResponses, 202: emptyResponse('The user may not download') }),
    };
    app.route({ method: ['GET', 'HEAD'], url, preHandler: app.requireUser, schema, handler });
  }
};
