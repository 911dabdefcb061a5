import { sweepTrash, type TrashDeps } from './trash-entry.js';

export type TrashSweeper = ReturnType<typeof createTrashSweeper>;

/**
 * The trash sweep, one at a time: a sweep asked for during a long one waits for it rather than
 * racing it. `settled` resolves when the last sweep asked for has ended.
 */
export function createTrashSweeper(deps: TrashDeps, log: { warn: (object: unknown, message: string) => void }) {
  let current: Promise<void> = Promise.resolve();
  return {
    /** Removes expired items and keeps each user's trash under the size limit. */
    sweep(now?: number): Promise<void> {
      current = current.then(() => sweepTrash(deps, now)).catch((error: unknown) => log.warn({ err: error }, 'trash sweep failed'));
      return current;
    },
    settled(): Promise<void> {
      return current;
    },
  };
}
