/** Releases a lock taken with `tryAcquire`; calling it twice is harmless. */
export type Release = () => void;

export type UploadLocks = ReturnType<typeof createUploadLocks>;

/**
 * One writer per upload. The server runs as a single process, so an in-memory set is the whole
 * lock table: a second request for a held key is refused at once (423) rather than queued, which
 * is what tus clients expect and retry on.
 */
export function createUploadLocks() {
  const held = new Set<string>();
  const waiters = new Map<string, Set<() => void>>();
  const tryAcquire = (key: string): Release | undefined => {
    if (held.has(key)) return undefined;
    held.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held.delete(key);
      for (const wake of waiters.get(key) ?? []) wake();
    };
  };
  return {
    tryAcquire,
    /**
     * Waits up to `timeoutMs` for a held key. Used where the holder is expected to let go soon:
     * a client that aborts its PATCH and terminates the upload sends the DELETE before the server
     * has noticed the dropped connection.
     */
    async acquireWithin(key: string, timeoutMs: number): Promise<Release | undefined> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const release = tryAcquire(key);
        if (release) return release;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        await new Promise<void>((resolve) => {
          const set = waiters.get(key) ?? new Set<() => void>();
          waiters.set(key, set);
          const wake = () => {
            clearTimeout(timer);
            set.delete(wake);
            if (set.size === 0) waiters.delete(key);
            resolve();
          };
          const timer = setTimeout(wake, left);
          set.add(wake);
        });
      }
    },
    isHeld(key: string): boolean {
      return held.has(key);
    },
  };
}
