import { sql, type Selectable } from 'kysely';
import type { AuditEntry, AuditOutcome } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import { engineOf } from '../../storage/engine.js';
import type { AuditLogTable } from '../../storage/schema.js';
import { badRequest } from '../../errors.js';

export type AuditRow = Selectable<AuditLogTable>;
export type NewAuditRow = Omit<AuditRow, 'id'>;

/** Filters of the list and the export, already checked (see `parseFilters`). */
export type AuditFilters = {
  /** Milliseconds, inclusive. */
  from?: number;
  to?: number;
  user?: string;
  /** An action, or a prefix ending in `.`. */
  action?: string;
  /** Text the path or the destination contains. */
  path?: string;
  outcome?: AuditOutcome;
};

/** Where a page starts: strictly older than this entry (entries sort by time, then id). */
export type AuditCursor = { time: number; id: number };

const DAY_MS = 86_400_000;

/**
 * A time filter: an RFC 3339 time, or a date `YYYY-MM-DD` (its start for `from`, its end for
 * `to`, in UTC), or milliseconds since the epoch.
 */
function parseTime(name: string, value: string | undefined, endOfDay: boolean): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d{1,15}$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    if (Number.isNaN(start)) throw badRequest(`invalid ${name}`);
    return endOfDay ? start + DAY_MS - 1 : start;
  }
  const time = Date.parse(text);
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}T/.test(text)) throw badRequest(`invalid ${name}`);
  return time;
}

/** Checks the filters of a query string; a malformed value is a 400 naming it. */
export function parseFilters(query: { from?: string; to?: string; user?: string; action?: string; path?: string; outcome?: AuditOutcome }): AuditFilters {
  const action = query.action?.trim() || undefined;
  if (action !== undefined && !/^[a-z0-9]+(\.[a-z0-9]*)*$/.test(action)) throw badRequest('invalid action');
  return {
    from: parseTime('from', query.from, false),
    to: parseTime('to', query.to, true),
    user: query.user?.trim() || undefined,
    action,
    path: query.path || undefined,
    outcome: query.outcome,
  };
}

export function encodeCursor(row: Pick<AuditRow, 'time' | 'id'>): string {
  return `${row.time}.${row.id}`;
}

export function decodeCursor(text: string | undefined): AuditCursor | undefined {
  if (text === undefined || text === '') return undefined;
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!match) throw badRequest('invalid cursor');
  return { time: Number(match[1]), id: Number(match[2]) };
}

/** The wire form of a stored row. */
export function presentRow(row: AuditRow): AuditEntry {
  let details: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row.details) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) details = parsed as Record<string, unknown>;
  } catch {
    details = {};
  }
  return {
    id: row.id,
    time: new Date(Number(row.time)).toISOString(),
    userId: row.user_id,
    username: row.username,
    client: row.client,
    action: row.action,
    path: row.path,
    destination: row.destination,
    outcome: row.outcome as AuditOutcome,
    status: row.status,
    details,
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;

export function createAuditRepository(db: Db) {
  return {
    async insert(row: NewAuditRow): Promise<void> {
      await db.insertInto('audit_log').values(row).execute();
    },

    /** Up to `limit` entries matching `filters`, newest first, older than `cursor` when given. */
    async page(filters: AuditFilters, limit: number, cursor?: AuditCursor): Promise<AuditRow[]> {
      let query = db.selectFrom('audit_log').selectAll();
      if (filters.from !== undefined) query = query.where('time', '>=', filters.from);
      if (filters.to !== undefined) query = query.where('time', '<=', filters.to);
      if (filters.user !== undefined) query = query.where('username', '=', filters.user);
      if (filters.outcome !== undefined) query = query.where('outcome', '=', filters.outcome);
      if (filters.action !== undefined) {
        const action = filters.action;
        // A prefix such as `file.`: compared by its leading characters, so no LIKE escaping.
        query = action.endsWith('.')
          ? query.where(sql<boolean>`substr(action, 1, ${action.length}) = ${action}`)
          : query.where('action', '=', action);
      }
      if (filters.path !== undefined) {
        const text = filters.path;
        // A plain substring test (no LIKE escaping): instr on SQLite, strpos on PostgreSQL.
        const position = engineOf(db) === 'postgres' ? sql.raw('strpos') : sql.raw('instr');
        query = query.where(sql<boolean>`(${position}(path, ${text}) > 0 OR ${position}(destination, ${text}) > 0)`);
      }
      if (cursor) {
        query = query.where((eb) => eb.or([eb('time', '<', cursor.time), eb.and([eb('time', '=', cursor.time), eb('id', '<', cursor.id)])]));
      }
      return query.orderBy('time', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** Every entry matching `filters`, newest first, read `batch` rows at a time. */
    async *each(filters: AuditFilters, batch = 500): AsyncGenerator<AuditRow> {
      let cursor: AuditCursor | undefined;
      for (;;) {
        const rows = await this.page(filters, batch, cursor);
        for (const row of rows) yield row;
        if (rows.length < batch) return;
        const last = rows[rows.length - 1]!;
        cursor = { time: Number(last.time), id: last.id };
      }
    },

    /** Removes entries older than `olderThan` (ms), then the oldest beyond `maxEntries`; answers how many went. */
    async sweep(olderThan: number | undefined, maxEntries: number): Promise<number> {
      let removed = 0;
      if (olderThan !== undefined) {
        const result = await db.deleteFrom('audit_log').where('time', '<', olderThan).executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      const boundary = await db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).offset(maxEntries).executeTakeFirst();
      if (boundary) {
        const result = await db.deleteFrom('audit_log').where('id', '<=', boundary.id).executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      return removed;
    },
  };
}
