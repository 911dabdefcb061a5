import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import { createDownloadsService } from '../downloads/downloads.service.js';
import { previewRoutes } from './preview.routes.js';
import { createPreviewsService } from './previews.service.js';
import { subtitleRoutes } from './subtitle.routes.js';
import { createSubtitlesService } from './subtitles.service.js';
import { createThumbnailCache } from './thumbnail-cache.js';
import { createVideoFrames } from './video-frame.js';

/** Image and video previews with their disk cache, and subtitles as WebVTT. */
export const previewsModule: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const downloads = createDownloadsService({ scopes: services.scopes });
  const cache = createThumbnailCache(services.config.cacheDir, app.log);
  const previews = createPreviewsService({ config: services.config, downloads, cache, videoFrames: createVideoFrames() });
  const subtitles = createSubtitlesService({ downloads });

  const detach = services.fileEvents.on(async (event) => {
    switch (event.kind) {
      case 'created':
      case 'modified':
        await previews.onFileChanged(event.real, false);
        break;
      case 'deleted':
        await previews.onFileChanged(event.real, event.isDir);
        break;
      case 'moved':
        await previews.onFileChanged(event.fromReal, event.isDir);
        await previews.onFileChanged(event.toReal, event.isDir);
        break;
      case 'copied':
        await previews.onFileChanged(event.toReal, event.isDir);
        break;
    }
  });
  app.addHook('onClose', async () => {
    detach();
  });

  await app.register(previewRoutes, { previews });
  await app.register(subtitleRoutes, { subtitles });
};
