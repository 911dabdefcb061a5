import type { FastifyPluginAsync } from 'fastify';
import type { SettingsService } from '../settings/settings.service.js';
import { trashRoutes } from './trash.routes.js';
import type { TrashService } from './trash.service.js';
import type { TrashSweeper } from './trash-sweeper.js';

export type TrashModuleDeps = {
  trash: TrashService;
  trashSweeper: TrashSweeper;
  settings: Pick<SettingsService, 'onChange'>;
  sweepIntervalMs?: number;
};

/**
 * The trash: its routes and the sweep that removes expired items and keeps each user's trash
 * under the size limit, run at start, every `sweepIntervalMs` and whenever the settings change.
 */
export const trashModule: FastifyPluginAsync<TrashModuleDeps> = async (app, { trash, trashSweeper, settings, sweepIntervalMs = 3600_000 }) => {
  const timer = setInterval(() => void trashSweeper.sweep(), sweepIntervalMs);
  timer.unref();
  const detach = settings.onChange(() => void trashSweeper.sweep());
  app.addHook('onReady', async () => {
    void trashSweeper.sweep();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    detach();
    await trashSweeper.settled();
  });

  await app.register(trashRoutes, { trash });
};
