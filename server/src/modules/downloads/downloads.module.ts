import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import { createDownloadsService } from './downloads.service.js';
import { rawRoutes } from './raw.routes.js';
import { usageRoutes } from './usage.routes.js';

/** Raw downloads (files and streamed archives) and disk usage. */
export const downloadsModule: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const downloads = createDownloadsService({ scopes: services.scopes });
  await app.register(rawRoutes, { downloads });
  await app.register(usageRoutes, { downloads });
};
