import crypto from 'node:crypto';
import type { Db } from '../../storage/db.js';

/**
 * Short-lived records found again through a random id held in an HttpOnly cookie: the sign-ins
 * on their way through the provider, and the sessions waiting for the app to collect them. Each
 * is taken at most once.
 */
type FlowStore<T> = {
  /** Stores a value and answers its id. */
  put(value: T): Promise<string>;
  /** Removes and answers the value of an id, when it is there and has not expired. */
  take(id: string | undefined): Promise<T | undefined>;
};

/** Makes the store of one kind of record (`kind` keeps kinds apart where they share a table). */
export type FlowStores = <T>(kind: string, options: { ttlMs: number; max: number }) => FlowStore<T>;

/** Records kept in memory, for a single instance: a restart forgets them (a sign-in then starts again). */
function createFlowStore<T>(options: { ttlMs: number; max: number }): FlowStore<T> {
  const entries = new Map<string, { value: T; expires: number }>();

  function sweep(now: number) {
    for (const [id, entry] of entries) {
      if (entry.expires <= now) entries.delete(id);
    }
  }

  return {
    /** The oldest entries go first when the store is full. */
    async put(value: T): Promise<string> {
      const now = Date.now();
      if (entries.size >= options.max) sweep(now);
      while (entries.size >= options.max) entries.delete(entries.keys().next().value!);
      const id = crypto.randomBytes(32).toString('base64url');
      entries.set(id, { value, expires: now + options.ttlMs });
      return id;
    },
    async take(id: string | undefined): Promise<T | undefined> {
      if (!id) return undefined;
      const entry = entries.get(id);
      if (!entry) return undefined;
      entries.delete(id);
      return entry.expires > Date.now() ? entry.value : undefined;
    },
  };
}

export const memoryFlows: FlowStores = (_kind, options) => createFlowStore(options);

const idHash = (id: string) => crypto.createHash('sha256').update(id).digest('hex');

/**
 * Records in the database, for instances that share it: a callback or a collection may reach
 * another instance than the one that stored the record. Only a SHA-256 of the id is stored; taking
 * a record is one delete that answers it, so two instances cannot both take it.
 */
export function createSharedFlows(db: Db): FlowStores {
  return <T>(kind: string, options: { ttlMs: number; max: number }): FlowStore<T> => ({
    async put(value: T): Promise<string> {
      const id = crypto.randomBytes(32).toString('base64url');
      await db
        .insertInto('sign_in_flows')
        .values({ id_hash: idHash(id), kind, value: JSON.stringify(value), expires_at: Date.now() + options.ttlMs })
        .execute();
      return id;
    },
    async take(id: string | undefined): Promise<T | undefined> {
      if (!id || id.length > 256) return undefined;
      const row = await db.deleteFrom('sign_in_flows').where('id_hash', '=', idHash(id)).where('kind', '=', kind).returning(['value', 'expires_at']).executeTakeFirst();
      if (!row || Number(row.expires_at) <= Date.now()) return undefined;
      return JSON.parse(row.value) as T;
    },
  });
}

/** Deletes expired records (run periodically, on one instance). */
export async function sweepSharedFlows(db: Db, at = Date.now()): Promise<void> {
  await db.deleteFrom('sign_in_flows').where('expires_at', '<=', at).execute();
}

/** Compares two strings without telling through timing where they first differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(left, right) && a === b;
}
