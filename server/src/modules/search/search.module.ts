import type { FastifyPluginAsync } from 'fastify';
import { searchRoutes } from './search.routes.js';
import type { SearchService } from './search.service.js';

export type SearchDeps = { search: SearchService };

/**
 * Search: the name index (built in the background once the server is ready, kept current by
 * Burrow's file events, a watcher and periodic rescans) and the search route.
 */
export const searchModule: FastifyPluginAsync<SearchDeps> = async (app, { search }) => {
  // Started once the server is ready and never awaited: the first request must not wait for it.
  app.addHook('onReady', async () => {
    // Without an index every search still works, by walking the folder.
    await search.start().catch((error: unknown) => app.log.error({ err: error }, 'search index unavailable; searches walk the folders'));
  });
  app.addHook('onClose', async () => {
    await search.stop();
  });
  await app.register(searchRoutes, { search });
};
