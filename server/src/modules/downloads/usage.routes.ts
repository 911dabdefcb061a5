import type { FastifyPluginAsync } from 'fastify';
import { ApiPaths, Usage } from '@burrow/protocol';
import { pathAfter } from '../../http/request-path.js';
import type { DownloadsService } from './downloads.service.js';

/** `GET /api/usage/*`: disk usage of the filesystem holding a folder. */
export const usageRoutes: FastifyPluginAsync<{ downloads: DownloadsService }> = async (app, { downloads }) => {
  for (const url of [ApiPaths.usage, `${ApiPaths.usage}/*`]) {
    app.get(url, { preHandler: app.requireUser, schema: { response: { 200: Usage } } }, async (request) => downloads.usage(request.auth!.user, pathAfter(request.url, ApiPaths.usage)));
  }
};
