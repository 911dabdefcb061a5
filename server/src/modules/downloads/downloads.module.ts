import type { FastifyPluginAsync } from 'fastify';
import type { DownloadsService } from './downloads.service.js';
import { rawRoutes } from './raw.routes.js';
import { usageRoutes } from './usage.routes.js';

export type DownloadsDeps = { downloads: DownloadsService };

/** Raw downloads (files and streamed archives) and disk usage. */
export const downloadsModule: FastifyPluginAsync<DownloadsDeps> = async (app, { downloads }) => {
  await app.register(rawRoutes, { downloads });
  await app.register(usageRoutes, { downloads });
};
