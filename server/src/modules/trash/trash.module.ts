import type { FastifyPluginAsync } from 'fastify';
import type { SettingsService } from '../settings/settings.service.js';
import { trashRoutes } from './trash.routes.js';
import type { TrashService } from './trash.service.js';
import type { TrashSweeper } from './trash-sweeper.js';
import type { Cluster } from '../../storage/cluster.js';

export type TrashModuleDeps = {
  trash: TrashService;
  trashSweeper: TrashSweeper;
  settings: Pick<SettingsService, 'onChange'>;
  /** The periodic sweep runs on one instance of a cluster per period. */
  cluster: Pick<Cluster, 'once'>;
  sweepIntervalMs?: number;
};

/**
 * The trash: its routes and the sweep that removes expired items and keeps each user's trash
 * under the size limit, run at start, every `sweepIntervalMs` and whenever the settings change.
 */
export const trashModule: FastifyPluginAsync<TrashModuleDeps> = async (app, { trash, trashSweeper, settings, cluster, sweepIntervalMs = 3600_000 }) => {
  const periodic = () => void cluster.once('trash-sweep', sweepIntervalMs, () => trashSweeper.sweep()).catch((error: unknown) => app.log.warn({ err: error }, 'trash sweep failed'));
  const timer = setInterval(periodic, sweepIntervalMs);
  timer.unref();
  // A change made on another instance of a cluster is swept there.
  const detach = settings.onChange((_settings, origin) => {
    if (origin === 'here') void trashSweeper.sweep();
  });
  app.addHook('onReady', async () => {
    periodic();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    detach();
    await trashSweeper.settled();
  });

  await app.register(trashRoutes, { trash });
};
