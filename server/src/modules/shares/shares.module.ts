import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import { createSharesRepository } from './shares.repository.js';
import { createSharesService } from './shares.service.js';
import { createShareLifecycle } from './share-lifecycle.js';
import { createShareAccess, type ShareAccessLimits } from './share-access.js';
import { sharesRoutes } from './shares.routes.js';
import { publicSharesRoutes } from './public-shares.routes.js';

/**
 * Share links: the authenticated API, the public endpoints, and the listeners that retire links
 * when their target or owner goes away.
 */
export const sharesModule: FastifyPluginAsync<{ services: Services; limits?: Partial<ShareAccessLimits> }> = async (app, { services, limits }) => {
  const repository = createSharesRepository(services.db);
  const deps = { shares: repository, users: services.usersRepository, scopes: services.scopes };
  const service = createSharesService(deps);
  const access = createShareAccess({ ...deps, limits });
  const lifecycle = createShareLifecycle(deps);
  const detach = lifecycle.attach(services.fileEvents, services.users);
  app.addHook('onClose', async () => {
    detach();
  });

  await app.register(sharesRoutes, { service });
  await app.register(publicSharesRoutes, { access });
};
