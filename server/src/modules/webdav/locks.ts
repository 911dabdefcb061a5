import crypto from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { badRequest } from '../../errors.js';
import type { Db } from '../../storage/db.js';
import type { WebdavLocksTable } from '../../storage/schema.js';

export type LockScope = 'exclusive' | 'shared';

export type Lock = {
  token: string;
  /** Key of the locked resource: its real path (the entry itself, links not followed). */
  key: string;
  /** Href of the lock root as the locking client named it (for `<D:lockroot>`). */
  rootHref: string;
  scope: LockScope;
  depth: '0' | 'infinity';
  /** The `<D:owner>` content as the client sent it, already serialised. */
  ownerXml: string;
  /** The user who took the lock: only they can use its token. */
  userId: number;
  timeoutSeconds: number;
  expiresAt: number;
};

/** Longest lock lifetime granted (also what `Infinite` gets); clients refresh well before. */
const MAX_LOCK_SECONDS = 24 * 3600;
const DEFAULT_LOCK_SECONDS = 3600;

const below = (key: string, root: string) => key.startsWith(root.endsWith('/') ? root : `${root}/`);

/** Parses `Timeout: Second-600, Infinite` into seconds granted. */
export function parseTimeout(header: string | undefined): number {
  if (!header) return DEFAULT_LOCK_SECONDS;
  for (const part of header.split(',').map((item) => item.trim())) {
    if (/^infinite$/i.test(part)) return MAX_LOCK_SECONDS;
    const match = /^second-(\d{1,10})$/i.exec(part);
    if (match) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(match[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}

export type LockStore = ReturnType<typeof createLockStore>;

type LockStoreOptions = {
  /**
   * The database shared by several instances (PostgreSQL): locks are kept there, so a lock
   * taken through one instance holds on every other. Without it they live in this process.
   */
  db?: Db;
  now?: () => number;
};

/** All lock creations in the cluster take this transaction lock, one at a time. */
const CREATE_LOCK_ID = 0x6275_7272;

type LockRow = Selectable<WebdavLocksTable>;

function fromRow(row: LockRow): Lock {
  return {
    token: row.token,
    key: row.key,
    rootHref: row.root_href,
    scope: row.scope === 'shared' ? 'shared' : 'exclusive',
    depth: row.depth === '0' ? '0' : 'infinity',
    ownerXml: row.owner_xml,
    userId: Number(row.user_id),
    timeoutSeconds: Number(row.timeout_seconds),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * WebDAV write locks: they last until UNLOCK or their timeout. One instance keeps them in
 * memory (a restart drops them). Instances sharing a database keep them in its `webdav_locks`
 * table: each WebDAV request first loads the live locks (`sync`), the checks then read that
 * picture, and every change is written through; creations are serialised across the cluster,
 * so two clients cannot take conflicting locks through two instances at once.
 */
export function createLockStore(options: LockStoreOptions = {}) {
  const now = options.now ?? Date.now;
  const db = options.db;
  let locks = new Map<string, Lock>();

  function purge(): void {
    const time = now();
    for (const [token, lock] of locks) if (lock.expiresAt <= time) locks.delete(token);
  }

  /** Locks that apply to `key`: on it, or depth-infinity locks on a folder above it. */
  function covering(key: string): Lock[] {
    purge();
    return [...locks.values()].filter((lock) => lock.key === key || (lock.depth === 'infinity' && below(key, lock.key)));
  }

  /** Locks on resources strictly below `key`. */
  function inside(key: string): Lock[] {
    purge();
    return [...locks.values()].filter((lock) => below(lock.key, key));
  }

  async function load(executor: Db): Promise<void> {
    const rows = await executor.selectFrom('webdav_locks').selectAll().where('expires_at', '>', now()).execute();
    locks = new Map(rows.map((row) => [row.token, fromRow(row)]));
  }

  function createIn(fields: Omit<Lock, 'token' | 'expiresAt'>): { lock: Lock } | { conflict: Lock } {
    const affected = [...covering(fields.key), ...(fields.depth === 'infinity' ? inside(fields.key) : [])];
    const conflict = affected.find((lock) => fields.scope === 'exclusive' || lock.scope === 'exclusive');
    if (conflict) return { conflict };
    const lock: Lock = { ...fields, token: `urn:uuid:${crypto.randomUUID()}`, expiresAt: now() + fields.timeoutSeconds * 1000 };
    locks.set(lock.token, lock);
    return { lock };
  }

  return {
    covering,
    inside,

    /** Brings this instance's picture of the locks up to date (a no-op without a shared database). */
    async sync(): Promise<void> {
      if (db) await load(db);
    },

    byToken(token: string): Lock | undefined {
      purge();
      return locks.get(token);
    },

    /**
     * Takes a new lock unless one conflicts: an exclusive lock conflicts with any lock on the
     * resources it covers, a shared one with exclusive locks only. Returns the conflicting lock.
     */
    async create(fields: Omit<Lock, 'token' | 'expiresAt'>): Promise<{ lock: Lock } | { conflict: Lock }> {
      if (!db) return createIn(fields);
      return db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${CREATE_LOCK_ID})`.execute(trx);
        await trx.deleteFrom('webdav_locks').where('expires_at', '<=', now()).execute();
        await load(trx);
        const result = createIn(fields);
        if ('lock' in result) {
          const { lock } = result;
          await trx
            .insertInto('webdav_locks')
            .values({
              token: lock.token,
              key: lock.key,
              root_href: lock.rootHref,
              scope: lock.scope,
              depth: lock.depth,
              owner_xml: lock.ownerXml,
              user_id: lock.userId,
              timeout_seconds: lock.timeoutSeconds,
              expires_at: lock.expiresAt,
            })
            .execute();
        }
        return result;
      });
    },

    async refresh(lock: Lock, timeoutSeconds: number): Promise<void> {
      lock.timeoutSeconds = timeoutSeconds;
      lock.expiresAt = now() + timeoutSeconds * 1000;
      if (db) await db.updateTable('webdav_locks').set({ timeout_seconds: lock.timeoutSeconds, expires_at: lock.expiresAt }).where('token', '=', lock.token).execute();
    },

    async remove(token: string): Promise<void> {
      locks.delete(token);
      if (db) await db.deleteFrom('webdav_locks').where('token', '=', token).execute();
    },

    /** Drops the locks on `key` and below (the resource was deleted or moved away). */
    async dropAt(key: string): Promise<void> {
      for (const [token, lock] of locks) if (lock.key === key || below(lock.key, key)) locks.delete(token);
      if (!db) return;
      const prefix = key.endsWith('/') ? key : `${key}/`;
      await db
        .deleteFrom('webdav_locks')
        .where((eb) => eb.or([eb('key', '=', key), eb(sql<boolean>`starts_with(${eb.ref('key')}, ${prefix})`, '=', true)]))
        .execute();
    },

    /** Seconds left on a lock, for `<D:timeout>`. */
    secondsLeft(lock: Lock): number {
      return Math.max(0, Math.ceil((lock.expiresAt - now()) / 1000));
    },
  };
}

/** One condition of an `If` list: a state token or an entity tag, possibly negated. */
type IfCondition = { not: boolean; token?: string; etag?: string };
/** A list of conditions, all of which must hold, for the tagged resource (or the request URL). */
export type IfList = { resource?: string; conditions: IfCondition[] };

/**
 * Parses an RFC 4918 `If` header: untagged lists `(<token> ["etag"]) (Not <token>)` or tagged
 * ones `<http://host/dav/a> (<token>)`. Malformed headers are refused with 400.
 */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let position = 0;
  let resource: string | undefined;
  let sawUntagged = false;
  let sawTagged = false;
  const fail = () => badRequest('malformed If header');
  const skipSpace = () => {
    while (position < header.length && /\s/.test(header[position]!)) position++;
  };
  const readUntil = (close: string) => {
    const end = header.indexOf(close, position);
    if (end < 0) throw fail();
    const value = header.slice(position, end);
    position = end + 1;
    return value;
  };
  while (true) {
    skipSpace();
    if (position >= header.length) break;
    const char = header[position]!;
    if (char === '<') {
      position++;
      resource = readUntil('>').trim();
      if (!resource) throw fail();
      sawTagged = true;
      skipSpace();
      if (header[position] !== '(') throw fail();
      continue;
    }
    if (char !== '(') throw fail();
    position++;
    if (resource === undefined) sawUntagged = true;
    const conditions: IfCondition[] = [];
    while (true) {
      skipSpace();
      if (position >= header.length) throw fail();
      if (header[position] === ')') {
        position++;
        break;
      }
      let not = false;
      if (/^not\b/i.test(header.slice(position, position + 4)) && /\s|<|\[/.test(header[position + 3] ?? '')) {
        not = true;
        position += 3;
        skipSpace();
      }
      const opener = header[position];
      if (opener === '<') {
        position++;
        const token = readUntil('>').trim();
        if (!token) throw fail();
        conditions.push({ not, token });
      } else if (opener === '[') {
        position++;
        const etag = readUntil(']').trim();
        if (!etag) throw fail();
        conditions.push({ not, etag });
      } else {
        throw fail();
      }
    }
    if (conditions.length === 0) throw fail();
    lists.push({ resource, conditions });
  }
  if (lists.length === 0 || (sawTagged && sawUntagged)) throw fail();
  return lists;
}

/** Every state token named positively in an `If` header: the lock tokens the client submits. */
export function submittedTokens(lists: IfList[]): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists) for (const condition of list.conditions) if (condition.token && !condition.not) tokens.add(condition.token);
  return tokens;
}

/** Whether two entity tags are the same, ignoring weakness (the If header compares this way for state). */
export function sameEtag(a: string, b: string): boolean {
  return a.replace(/^W\//, '') === b.replace(/^W\//, '');
}
