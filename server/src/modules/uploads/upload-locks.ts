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
  return {
    tryAcquire(key: string): Release | undefined {
      if (held.has(key)) return undefined;
      held.add(key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(key);
      };
    },
    isHeld(key: string): boolean {
      return held.has(key);
    },
  };
}
