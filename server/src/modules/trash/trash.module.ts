import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import { createHooks } from '../files/hooks.js';
import { sweepTrash } from './trash-entry.js';
import { trashRoutes } from './trash.routes.js';
import { createTrashService } from './trash.service.js';

const running = new WeakMap<Services, { sweep: (now?: number) => Promise<void> }>();

/** The trash an app built with these services runs (tests start its sweep by hand). */
export function trashOf(services: Services): { sweep: (now?: number) => Promise<void> } | undefined {
  return running.get(services);
}

/**
 * The trash: its routes and the sweep that removes expired items and keeps each user's trash
 * under the size limit, run at start, every `sweepIntervalMs` and whenever the settings change.
 */
export const trashModule: FastifyPluginAsync<{ services: Services; sweepIntervalMs?: number }> = async (app, { services, sweepIntervalMs = 3600_000 }) => {
  const trash = createTrashService({ ...services, hooks: createHooks(services, { log: app.log }) });
  // One sweep at a time: a settings change during a long sweep waits for it rather than racing.
  let current: Promise<void> = Promise.resolve();
  const sweep = (now?: number) => {
    current = current.then(() => sweepTrash(services, now)).catch((error: unknown) => app.log.warn({ err: error }, 'trash sweep failed'));
    return current;
  };
  running.set(services, { sweep });

  const timer = setInterval(() => void sweep(), sweepIntervalMs);
  timer.unref();
  const detach = services.settings.onChange(() => void sweep());
  app.addHook('onReady', async () => {
    void sweep();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    detach();
    await current;
    running.delete(services);
  });

  await app.register(trashRoutes, { trash });
};
