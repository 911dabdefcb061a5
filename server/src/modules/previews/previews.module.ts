import type { FastifyPluginAsync } from 'fastify';
import { previewRoutes } from './preview.routes.js';
import type { PreviewsService } from './previews.service.js';
import { subtitleRoutes } from './subtitle.routes.js';
import type { SubtitlesService } from './subtitles.service.js';

export type PreviewsDeps = { previews: PreviewsService; subtitles: SubtitlesService };

/** Image and video previews with their disk cache, and subtitles as WebVTT. */
export const previewsModule: FastifyPluginAsync<PreviewsDeps> = async (app, { previews, subtitles }) => {
  await app.register(previewRoutes, { previews });
  await app.register(subtitleRoutes, { subtitles });
};
