import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, Usage, WildcardParams, responses } from '@burrow/protocol';
import { pathAfter } from '../../http/request-path.js';
import type { DownloadsService } from './downloads.service.js';

/** `GET /api/usage/*`: disk usage of the filesystem holding a folder. */
export const usageRoutes: FastifyPluginAsyncTypebox<{ downloads: DownloadsService }> = async (app, { downloads }) => {
  for (const url of [ApiPaths.usage, `${ApiPaths.usage}/*`]) {
    const schema = { summary: 'Disk usage of the filesystem holding a folder', tags: [ApiTags.downloads], ...(url.endsWith('/*') ? { params: WildcardParams } : {}), response: responses({ 200: Usage }) };
    app.get(url, { preHandler: app.requireUser, schema }, async (request) => downloads.usage(request.auth!.user, pathAfter(request.url, ApiPaths.usage)));
  }
};
