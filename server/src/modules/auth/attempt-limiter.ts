import { tooManyRequests } from '../../errors.js';

/**
 * Counts failed attempts per key in a sliding window. `check` throws 429 with Retry-After while
 * a key is over its budget; `fail` records a failure; `succeed` clears the key.
 */
export function createAttemptLimiter(options: { max: number; windowMs: number; maxKeys?: number }) {
  const failures = new Map<string, number[]>();
  const maxKeys = options.maxKeys ?? 100_000;

  function recent(key: string, now: number): number[] {
    const times = (failures.get(key) ?? []).filter((time) => now - time < options.windowMs);
    if (times.length) failures.set(key, times);
    else failures.delete(key);
    return times;
  }

  return {
    check(...keys: string[]): void {
      const now = Date.now();
      for (const key of keys) {
        const times = recent(key, now);
        if (times.length >= options.max) throw tooManyRequests((times[0]! + options.windowMs - now) / 1000);
      }
    },
    fail(...keys: string[]): void {
      const now = Date.now();
      if (failures.size > maxKeys) failures.clear();
      for (const key of keys) failures.set(key, [...recent(key, now), now]);
    },
    succeed(...keys: string[]): void {
      for (const key of keys) failures.delete(key);
    },
  };
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
