import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import { searchRoutes } from './search.routes.js';
import { createSearchService, type SearchOptions, type SearchService } from './search.service.js';

const running = new WeakMap<Services, SearchService>();

/** The search service an app built with these services runs (tests wait on its index). */
export function searchServiceOf(services: Services): SearchService | undefined {
  return running.get(services);
}

/**
 * Search: the name index (built in the background once the server is ready, kept current by
 * Burrow's file events, a watcher and periodic rescans) and the search route.
 */
export const searchModule: FastifyPluginAsync<{ services: Services } & SearchOptions> = async (app, { services, ...options }) => {
  const search = createSearchService(
    { config: services.config, scopes: services.scopes, log: app.log },
    { rescanIntervalMs: services.config.searchRescanInterval * 1000, ...options },
  );
  running.set(services, search);
  const detach = services.fileEvents.on((event) => search.onFileEvent(event));
  // Started once the server is ready and never awaited: the first request must not wait for it.
  app.addHook('onReady', async () => {
    // Without an index every search still works, by walking the folder.
    await search.start().catch((error: unknown) => app.log.error({ err: error }, 'search index unavailable; searches walk the folders'));
  });
  app.addHook('onClose', async () => {
    detach();
    await search.stop();
    running.delete(services);
  });
  await app.register(searchRoutes, { search });
};
