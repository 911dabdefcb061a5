import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db.js';
import { engineOf } from './engine.js';

/**
 * What instances that share one database tell each other, and what they must do only once.
 *
 * On PostgreSQL several Burrow instances may run behind one address: a message published here
 * reaches every other instance through `LISTEN/NOTIFY` (state that an instance keeps in memory,
 * such as the settings, is refreshed that way), and periodic jobs and exclusive work claim a row
 * in the database first, so that one instance does them. On SQLite there is one instance: messages
 * have nobody to reach, and the same claims simply succeed.
 */
export type Cluster = {
  /** This process's name in the cluster, unique per start. */
  readonly instanceId: string;
  /** True when other instances may share the database (PostgreSQL). */
  readonly shared: boolean;
  /** Sends `payload` under `topic` to every other instance (never back to this one). */
  publish(topic: string, payload?: string): Promise<void>;
  /**
   * Calls `handler` with what other instances publish under `topic`. After the connection that
   * listens was lost and made again, every handler is called with `RESYNC`: messages may have been
   * missed in between, so whatever they would have refreshed should be refreshed now.
   */
  on(topic: string, handler: (payload: string) => void): () => void;
  /**
   * Runs `job` unless some instance began the job named `name` less than `everyMs` ago (with a
   * tenth of slack for timers that fire a little early); says whether it ran here.
   */
  once(name: string, everyMs: number, job: () => Promise<unknown>): Promise<boolean>;
  /**
   * Claims `name` for `ttlMs` (until released or renewed); undefined when someone else holds it,
   * whether on this instance or another. A holder that dies frees the claim when its time is up.
   */
  lease(name: string, ttlMs: number): Promise<Lease | undefined>;
  /** Resolves once messages from other instances are heard (at once on SQLite or with no handler). */
  listening(): Promise<void>;
  /** Stops listening (the database itself is closed by its owner). */
  close(): Promise<void>;
};

type Lease = {
  /** Extends the claim by its time to live; false when it was lost (expired and taken). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
};

/** The payload handlers get when messages may have been missed. */
export const RESYNC = '\u0000resync';

/** PostgreSQL's limit on a notification's payload is 8000 bytes; the envelope takes some. */
const MAX_PAYLOAD_BYTES = 7000;
const CHANNEL = 'burrow_cluster';

type Message = { from: string; topic: string; payload: string };

export type ClusterOptions = {
  /** The PostgreSQL URL, for the connection that listens; none on SQLite. */
  url?: string;
  /** Where a lost listening connection is reported. */
  log?: { warn: (object: unknown, message: string) => void };
};

export function createCluster(db: Db, options: ClusterOptions = {}): Cluster {
  const instanceId = crypto.randomBytes(8).toString('hex');
  const shared = engineOf(db) === 'postgres';
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let listener: Listener | undefined;
  let closed = false;

  function deliver(message: Message): void {
    if (message.from === instanceId) return;
    for (const handler of handlers.get(message.topic) ?? []) {
      try {
        handler(message.payload);
      } catch (error) {
        options.log?.warn({ err: error, topic: message.topic }, 'a cluster message handler failed');
      }
    }
  }

  function resync(): void {
    for (const [topic, set] of handlers) for (const handler of set) {
      try {
        handler(RESYNC);
      } catch (error) {
        options.log?.warn({ err: error, topic }, 'a cluster message handler failed');
      }
    }
  }

  return {
    instanceId,
    shared,
    async publish(topic, payload = '') {
      if (!shared) return;
      const text = JSON.stringify({ from: instanceId, topic, payload } satisfies Message);
      // Too large to notify: the others are told to refresh everything under the topic.
      const body = Buffer.byteLength(text) > MAX_PAYLOAD_BYTES ? JSON.stringify({ from: instanceId, topic, payload: RESYNC } satisfies Message) : text;
      await sql`SELECT pg_notify(${CHANNEL}, ${body})`.execute(db);
    },
    on(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
      if (shared && !listener && !closed && options.url) listener = listen(options.url, deliver, resync, options.log);
      return () => {
        set.delete(handler);
      };
    },
    async once(name, everyMs, job) {
      const now = Date.now();
      const claimed = await sql<{ name: string }>`
        INSERT INTO cluster_jobs (name, started_at, holder) VALUES (${name}, ${now}, ${instanceId})
        ON CONFLICT (name) DO UPDATE SET started_at = excluded.started_at, holder = excluded.holder
        WHERE cluster_jobs.started_at <= ${now - Math.floor(everyMs * 0.9)}
        RETURNING name`.execute(db);
      if (claimed.rows.length === 0) return false;
      await job();
      return true;
    },
    async lease(name, ttlMs) {
      const holder = `${instanceId}:${crypto.randomBytes(6).toString('hex')}`;
      const claim = async (): Promise<boolean> => {
        const now = Date.now();
        const result = await sql<{ name: string }>`
          INSERT INTO cluster_leases (name, holder, expires_at) VALUES (${name}, ${holder}, ${now + ttlMs})
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE cluster_leases.expires_at <= ${now} OR cluster_leases.holder = ${holder}
          RETURNING name`.execute(db);
        return result.rows.length > 0;
      };
      if (!(await claim())) return undefined;
      return {
        renew: claim,
        async release() {
          await sql`DELETE FROM cluster_leases WHERE name = ${name} AND holder = ${holder}`.execute(db);
        },
      };
    },
    async listening() {
      await listener?.connected();
    },
    async close() {
      closed = true;
      handlers.clear();
      await listener?.close();
      listener = undefined;
    },
  };
}

type Listener = { connected(): Promise<void>; close(): Promise<void> };

/** One connection that listens, made again (with a growing pause) whenever it is lost. */
function listen(url: string, deliver: (message: Message) => void, resync: () => void, log: ClusterOptions['log']): Listener {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver is loaded lazily; only its Client is used
  let client: any;
  let stopped = false;
  let retryMs = 250;
  let timer: NodeJS.Timeout | undefined;
  let connected: Promise<void> = Promise.resolve();

  const connect = async (again: boolean): Promise<void> => {
    const { default: pg } = await import('pg');
    if (stopped) return;
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('error', () => undefined);
    next.on('end', () => {
      if (stopped || client !== next) return;
      log?.warn({}, 'the cluster connection was lost; connecting again');
      schedule();
    });
    next.on('notification', (note: { channel: string; payload?: string }) => {
      if (note.channel !== CHANNEL || !note.payload) return;
      try {
        deliver(JSON.parse(note.payload) as Message);
      } catch {
        // Not one of ours.
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      retryMs = 250;
      if (again) resync();
    } catch (error) {
      if (stopped) return;
      log?.warn({ err: error }, 'cannot listen for cluster messages; trying again');
      void next.end().catch(() => undefined);
      schedule();
    }
  };
  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      connected = connect(true);
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 10_000);
  };
  connected = connect(false);

  return {
    connected: () => connected,
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await connected.catch(() => undefined);
      await client?.end().catch(() => undefined);
    },
  };
}
