import crypto from 'node:crypto';

/**
 * Short-lived records kept in memory and found again through a random id held in an HttpOnly
 * cookie: the sign-ins on their way through the provider, and the sessions waiting for the app to
 * collect them. Each is taken at most once; a restart forgets them (a sign-in then starts again).
 */
export function createFlowStore<T>(options: { ttlMs: number; max: number }) {
  const entries = new Map<string, { value: T; expires: number }>();

  function sweep(now: number) {
    for (const [id, entry] of entries) {
      if (entry.expires <= now) entries.delete(id);
    }
  }

  return {
    /** Stores a value and answers its id. The oldest entries go first when the store is full. */
    put(value: T): string {
      const now = Date.now();
      if (entries.size >= options.max) sweep(now);
      while (entries.size >= options.max) entries.delete(entries.keys().next().value!);
      const id = crypto.randomBytes(32).toString('base64url');
      entries.set(id, { value, expires: now + options.ttlMs });
      return id;
    },
    /** Removes and answers the value of an id, when it is there and has not expired. */
    take(id: string | undefined): T | undefined {
      if (!id) return undefined;
      const entry = entries.get(id);
      if (!entry) return undefined;
      entries.delete(id);
      return entry.expires > Date.now() ? entry.value : undefined;
    },
    get size() {
      return entries.size;
    },
  };
}

/** Compares two strings without telling through timing where they first differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(left, right) && a === b;
}
