import crypto from 'node:crypto';
import { badRequest } from '../../errors.js';

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

/**
 * WebDAV write locks, kept in memory: they last until UNLOCK, their timeout or a restart. One
 * process serves all requests today; running several instances behind one address would need
 * them in the database, shared by all.
 */
export function createLockStore(now: () => number = Date.now) {
  const locks = new Map<string, Lock>();

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

  return {
    covering,
    inside,

    byToken(token: string): Lock | undefined {
      purge();
      return locks.get(token);
    },

    /**
     * Takes a new lock unless one conflicts: an exclusive lock conflicts with any lock on the
     * resources it covers, a shared one with exclusive locks only. Returns the conflicting lock.
     */
    create(fields: Omit<Lock, 'token' | 'expiresAt'>): { lock: Lock } | { conflict: Lock } {
      const affected = [...covering(fields.key), ...(fields.depth === 'infinity' ? inside(fields.key) : [])];
      const conflict = affected.find((lock) => fields.scope === 'exclusive' || lock.scope === 'exclusive');
      if (conflict) return { conflict };
      const lock: Lock = { ...fields, token: `urn:uuid:${crypto.randomUUID()}`, expiresAt: now() + fields.timeoutSeconds * 1000 };
      locks.set(lock.token, lock);
      return { lock };
    },

    refresh(lock: Lock, timeoutSeconds: number): void {
      lock.timeoutSeconds = timeoutSeconds;
      lock.expiresAt = now() + timeoutSeconds * 1000;
    },

    remove(token: string): void {
      locks.delete(token);
    },

    /** Drops the locks on `key` and below (the resource was deleted or moved away). */
    dropAt(key: string): void {
      for (const [token, lock] of locks) if (lock.key === key || below(lock.key, key)) locks.delete(token);
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
