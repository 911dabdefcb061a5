import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import { createSharesRepository } from './shares.repository.js';
import { createSharesService } from './shares.service.js';
import { createShareLifecycle } from './share-lifecycle.js';
import { createShareAccess, type ShareAccessLimits } from './share-access.js';
import { sharesRoutes } from './shares.routes.js';
import { publicSharesRoutes } from './public-shares.routes.js';
import { createDownloadsService } from '../downloads/downloads.service.js';
import { createPreviewsService } from '../previews/previews.service.js';
import { createThumbnailCache } from '../previews/thumbnail-cache.js';
import { createVideoFrames } from '../previews/video-frame.js';
import { createUploadsRepository } from '../uploads/uploads.repository.js';
import { uploadsServiceOf } from '../uploads/uploads.module.js';
import { createFileRequestsRepository } from './file-requests.repository.js';
import { createFileRequests } from './file-requests.service.js';
import { fileRequestsRoutes } from './file-requests.routes.js';

/**
 * Share links: the authenticated API, the public endpoints, and the listeners that retire links
 * when their target or owner goes away.
 */
export const sharesModule: FastifyPluginAsync<{
  services: Services;
  limits?: Partial<ShareAccessLimits>;
  /** Replaces the password check (tests count the checks made). */
  verifyPassword?: (password: string, hash: string | undefined) => Promise<boolean>;
}> = async (app, { services, limits, verifyPassword }) => {
  const repository = createSharesRepository(services.db);
  const deps = { shares: repository, users: services.usersRepository, scopes: services.scopes };
  const fileRequestRows = createFileRequestsRepository(services.db);
  const service = createSharesService({ ...deps, fileRequests: fileRequestRows });
  const access = createShareAccess({ ...deps, limits, verifyPassword });
  const lifecycle = createShareLifecycle(deps);
  const detach = lifecycle.attach(services.fileEvents, services.users);
  app.addHook('onClose', async () => {
    detach();
  });

  await app.register(sharesRoutes, { service });
  // Public previews render into the same disk cache as the private ones (the previews module
  // keeps it current on file events); this instance only adds its own bounded render queue.
  const previews = createPreviewsService({
    config: services.config,
    downloads: createDownloadsService({ scopes: services.scopes }),
    cache: createThumbnailCache(services.config.cacheDir, app.log),
    videoFrames: createVideoFrames(),
  });
  await app.register(publicSharesRoutes, { access, previews });
  // Upload-only links upload through the app's one uploads service (its locks, staging and sweep).
  const uploads = uploadsServiceOf(services);
  if (uploads) {
    const requests = createFileRequests({ access, uploads, uploadRows: createUploadsRepository(services.db), repository: fileRequestRows });
    await app.register(fileRequestsRoutes, { requests, baseURL: services.config.baseURL });
  }
};
