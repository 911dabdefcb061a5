import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { AnonymousActor, DefaultAuditSettings, type AuditAction, type AuditOutcome, type AuditSettings } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { createAuditRepository, presentRow, type AuditRepository, type NewAuditRow } from './audit.repository.js';

/** Who acted: a user, or a visitor of a public link. */
export type AuditActor = { id: number | null; username: string } | typeof AnonymousActor;

/** One thing to record. Callers pass names, paths and small facts, never secrets. */
export type AuditEvent = {
  actor: AuditActor;
  /** The client's address (`request.clientAddress`); '' outside requests. */
  client: string;
  action: AuditAction;
  path?: string;
  destination?: string;
  outcome: AuditOutcome;
  /** The HTTP status of the answer; 0 when none. */
  status?: number;
  details?: Record<string, unknown>;
};

/** The actor of a request: its signed-in user, else nobody known (''). */
export function actorOf(request: FastifyRequest): AuditActor {
  const user = request.auth?.user;
  return user ? { id: user.id, username: user.username } : { id: null, username: '' };
}

/** The outcome a status stands for: 2xx and 3xx ok; 401, 403 and 429 denied; the rest failed. */
export function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return 'ok';
  if (status === 401 || status === 403 || status === 429) return 'denied';
  return 'failed';
}

const SETTINGS_KEY = 'audit';
/** Longest text kept in a column; paths longer than this are cut (and say so). */
const MAX_TEXT = 4096;
/** Details beyond this many bytes of JSON are replaced by a note saying so. */
const MAX_DETAILS = 4096;

function clip(text: string | undefined, max = MAX_TEXT): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function detailsJson(details: Record<string, unknown> | undefined): string {
  const json = JSON.stringify(details ?? {});
  return json.length > MAX_DETAILS ? JSON.stringify({ truncated: true }) : json;
}

/** Where entries go besides the database: nowhere, standard output or a file (one JSON object a line). */
function createSink(target: string, log: { warn: (object: unknown, message: string) => void }) {
  if (target === '') return { write() {}, async close() {} };
  if (target === 'stdout') {
    return {
      write(line: string) {
        process.stdout.write(line);
      },
      async close() {},
    };
  }
  const stream = fs.createWriteStream(target, { flags: 'a', mode: 0o600 });
  stream.on('error', (error) => log.warn({ err: error }, 'audit log file cannot be written'));
  return {
    write(line: string) {
      stream.write(line);
    },
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}

export type AuditService = Awaited<ReturnType<typeof createAuditService>>;

/**
 * Records audit entries in the database (and the JSON lines target when configured), keeps the
 * retention settings and sweeps old entries. Recording never fails the action it describes: a
 * write that fails is logged.
 */
export async function createAuditService(options: { db: Db; target: string; log: { warn: (object: unknown, message: string) => void } }) {
  const { db, log } = options;
  const repository: AuditRepository = createAuditRepository(db);
  const sink = createSink(options.target, log);
  const pending = new Set<Promise<void>>();

  const settingsRows = createSettingsRepository(db);
  const stored = await settingsRows.get(SETTINGS_KEY);
  let settings: AuditSettings = { ...DefaultAuditSettings, ...(stored !== undefined ? (JSON.parse(stored) as Partial<AuditSettings>) : {}) };

  async function write(row: NewAuditRow): Promise<void> {
    try {
      await repository.insert(row);
    } catch (error) {
      log.warn({ err: error, action: row.action }, 'audit entry could not be stored');
    }
  }

  return {
    repository,

    /** Records an event; the returned promise settles once it is stored (it never rejects). */
    record(event: AuditEvent): Promise<void> {
      const actor = event.actor === AnonymousActor ? { id: null, username: AnonymousActor } : event.actor;
      const row: NewAuditRow = {
        time: Date.now(),
        user_id: actor.id,
        username: clip(actor.username, 255),
        client: clip(event.client, 64),
        action: event.action,
        path: clip(event.path),
        destination: clip(event.destination),
        outcome: event.outcome,
        status: event.status ?? 0,
        details: detailsJson(event.details),
      };
      sink.write(`${JSON.stringify(presentRow({ ...row, id: 0 }), (key, value) => (key === 'id' ? undefined : value))}\n`);
      const done = write(row);
      pending.add(done);
      void done.finally(() => pending.delete(done));
      return done;
    },

    /** Waits for every entry recorded so far to be stored (reads call it first). */
    async flush(): Promise<void> {
      await Promise.all([...pending]);
    },

    settings(): AuditSettings {
      return { ...settings };
    },

    async saveSettings(next: AuditSettings): Promise<AuditSettings> {
      const value = JSON.stringify(next);
      await settingsRows.put(SETTINGS_KEY, value);
      settings = { ...next };
      return this.settings();
    },

    /** Removes what the retention and the bound no longer keep. */
    async sweep(now = Date.now()): Promise<number> {
      await this.flush();
      const olderThan = settings.retentionDays > 0 ? now - settings.retentionDays * 86_400_000 : undefined;
      return repository.sweep(olderThan, settings.maxEntries);
    },

    async close(): Promise<void> {
      await this.flush();
      await sink.close();
    },
  };
}
