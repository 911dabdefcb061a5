import path from 'node:path';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import type { MergeChecks, MergeCounts } from './index-merge.js';
import { trigramTerms, type IndexSearchOptions } from './index-search.js';
import type { IndexStore } from './index-store.js';
import { candidateExtensions, effectiveTerms, type SearchQuery } from './search-query.js';
import type { IndexRow } from './search.repository.js';
import { EntryKind, type WalkEntry } from './tree-walker.js';
import { compareKeys, parentPath, subtreeHigh, subtreeLow, walkKey } from './walk-order.js';

/**
 * The name index in PostgreSQL, shared by every instance on the database: the same tables as the
 * embedded index (migrations `0002_search_index`, `0014_search_index_postgres`), walk order from
 * the unique expression index `search_entries_walk` (byte order, as SQLite compares), substring
 * search from the `pg_trgm` GIN index on the lower-case name. Writes are set-based (a whole merged
 * batch in a few statements) and idempotent where instances may race (an insert of a path that
 * is already there does nothing), so instances that see the same change agree.
 */

/** The walk-order key, exactly as the `search_entries_walk` index computes it. */
const KEY = sql.raw(`(replace(replace(replace(path, chr(2), chr(2) || chr(2)), chr(1), chr(2) || chr(1)), '/', chr(1)) COLLATE "C")`);

/** Rows read per page while merging and per step while searching. */
const PAGE = 2_000;

type Executor = Db | Transaction<Database>;

/** A LIKE pattern for "contains `term`" (backslash is PostgreSQL's default escape). */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * Conditions narrowing rows to those that may match `query` (exact for terms and extensions; the
 * caller still checks every row). Case-insensitive terms are LIKE patterns on the lower-case
 * name, which the trigram index answers; case-sensitive ones are exact on the name, with the
 * lower-case pattern beside them where that is a safe superset (see trigramTerms) so the index
 * still narrows.
 */
function filterConditions(query: SearchQuery): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  const terms = effectiveTerms(query);
  if (terms.length > 0) {
    const column = sql.raw(query.caseSensitive ? 'name' : 'name_lower');
    conditions.push(sql`(${sql.join(terms.map((term) => sql`${column} LIKE ${containsPattern(term)}`), sql` OR `)})`);
    const narrowing = query.caseSensitive ? trigramTerms(query) : undefined;
    if (narrowing) conditions.push(sql`(${sql.join(narrowing.map((term) => sql`name_lower LIKE ${containsPattern(term)}`), sql` OR `)})`);
  }
  const extensions = candidateExtensions(query);
  if (extensions) conditions.push(extensions.length === 0 ? sql`false` : sql`ext = ANY(${extensions}::text[])`);
  return conditions;
}

async function rowsAfter(db: Executor, after: string, until: { key: string; inclusive: boolean } | undefined, limit: number): Promise<IndexRow[]> {
  const bound = until === undefined ? sql`` : until.inclusive ? sql` AND ${KEY} <= ${until.key}` : sql` AND ${KEY} < ${until.key}`;
  const result = await sql<IndexRow>`SELECT id, path, name, kind FROM search_entries WHERE ${KEY} > ${after}${bound} ORDER BY ${KEY} LIMIT ${limit}`.execute(db);
  return result.rows;
}

async function insertMany(db: Executor, entries: { path: string; name: string; kind: EntryKind }[]): Promise<void> {
  for (let start = 0; start < entries.length; start += 10_000) {
    const chunk = entries.slice(start, start + 10_000);
    await sql`
      INSERT INTO search_entries (path, name, name_lower, ext, kind)
      SELECT * FROM unnest(${chunk.map((entry) => entry.path)}::text[], ${chunk.map((entry) => entry.name)}::text[],
        ${chunk.map((entry) => entry.name.toLowerCase())}::text[], ${chunk.map((entry) => extensionOf(entry.name))}::text[], ${chunk.map((entry) => entry.kind)}::int[])
      ON CONFLICT DO NOTHING`.execute(db);
  }
}

async function findRow(db: Executor, relative: string): Promise<IndexRow | undefined> {
  const result = await sql<IndexRow>`SELECT id, path, name, kind FROM search_entries WHERE ${KEY} = ${walkKey(relative)}`.execute(db);
  return result.rows[0];
}

async function removeSubtreeIn(db: Executor, relative: string): Promise<number> {
  const key = walkKey(relative);
  const result = await sql`DELETE FROM search_entries WHERE (${KEY} > ${key + '\x01'} AND ${KEY} < ${key + '\x02'}) OR ${KEY} = ${key}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export function pgIndexStore(db: Db): IndexStore {
  let counted = 0;

  async function count(): Promise<number> {
    const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_entries`.execute(db);
    counted = result.rows[0]!.n;
    return counted;
  }

  /** Same algorithm as index-merge's, with the writes of the batch collected and applied as sets. */
  async function merge(walked: WalkEntry[], after: string, until: { key: string; inclusive: boolean } | undefined, checks: MergeChecks, counts: MergeCounts): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const removals: number[] = [];
      const kinds = new Map<number, EntryKind>();
      const inserts: { path: string; name: string; kind: EntryKind }[] = [];
      const removedFolders: string[] = [];

      let page: IndexRow[] = [];
      let pageIndex = 0;
      let cursor = after;
      let exhausted = false;
      const nextRow = async (): Promise<{ row: IndexRow; key: string } | undefined> => {
        if (pageIndex >= page.length) {
          if (exhausted) return undefined;
          page = await rowsAfter(trx, cursor, until, PAGE);
          pageIndex = 0;
          if (page.length < PAGE) exhausted = true;
          if (page.length === 0) return undefined;
        }
        const row = page[pageIndex++]!;
        const key = walkKey(row.path);
        cursor = key;
        return { row, key };
      };
      const dropRow = (row: IndexRow) => {
        if (checks.isStale(row.path)) {
          const kind = checks.kindOnDisk(row.path);
          if (kind !== undefined) {
            if (kind !== row.kind) kinds.set(row.id, kind);
            return;
          }
        }
        removals.push(row.id);
        if (row.kind === EntryKind.dir) removedFolders.push(row.path);
        counts.removed++;
      };

      let current = await nextRow();
      for (const entry of walked) {
        const key = walkKey(entry.path);
        while (current && compareKeys(current.key, key) < 0) {
          dropRow(current.row);
          current = await nextRow();
        }
        if (current && current.key === key) {
          if (current.row.kind !== entry.kind) {
            kinds.set(current.row.id, checks.isStale(entry.path) ? (checks.kindOnDisk(entry.path) ?? entry.kind) : entry.kind);
            counts.updated++;
          }
          current = await nextRow();
          continue;
        }
        const kind = checks.isStale(entry.path) ? checks.kindOnDisk(entry.path) : entry.kind;
        if (kind === undefined) continue;
        inserts.push({ path: entry.path, name: entry.name, kind });
        counts.inserted++;
      }
      while (current) {
        dropRow(current.row);
        current = await nextRow();
      }

      for (let start = 0; start < removals.length; start += 10_000) {
        await sql`DELETE FROM search_entries WHERE id = ANY(${removals.slice(start, start + 10_000)}::int[])`.execute(trx);
      }
      if (kinds.size > 0) {
        await sql`
          UPDATE search_entries SET kind = changed.kind
          FROM unnest(${[...kinds.keys()]}::int[], ${[...kinds.values()]}::int[]) AS changed (id, kind)
          WHERE search_entries.id = changed.id`.execute(trx);
      }
      await insertMany(trx, inserts);
      for (const folder of removedFolders) checks.onFolderRemoved?.(folder);
    });
  }

  /**
   * Two plans, as on SQLite: terms the trigram index can narrow fetch their candidates at once,
   * unordered (the planner then reads them through the GIN index) and sorted here, up to
   * `candidateLimit`; beyond that, and for queries without such terms, the folder's range is read
   * in walk order a page at a time, filtered by the database.
   */
  async function* search(prefix: string, query: SearchQuery, signal: AbortSignal, options: IndexSearchOptions): AsyncGenerator<IndexRow[]> {
    const high = subtreeHigh(prefix);
    const conditions = filterConditions(query);
    const extra = conditions.length === 0 ? sql`` : sql` AND ${sql.join(conditions, sql` AND `)}`;
    const upper = high === undefined ? sql`` : sql` AND ${KEY} < ${high}`;
    let after = subtreeLow(prefix);
    if (trigramTerms(query)) {
      const result = await sql<IndexRow>`
        SELECT id, path, name, kind FROM search_entries
        WHERE ${KEY} > ${after}${upper}${extra}
        LIMIT ${options.candidateLimit + 1}`.execute(db);
      if (signal.aborted) return;
      if (result.rows.length <= options.candidateLimit) {
        const keyed = result.rows.map((row) => ({ row, key: walkKey(row.path) }));
        keyed.sort((a, b) => compareKeys(a.key, b.key));
        for (let start = 0; start < keyed.length; start += PAGE) {
          if (signal.aborted) return;
          yield keyed.slice(start, start + PAGE).map((entry) => entry.row);
        }
        return;
      }
    }
    while (!signal.aborted) {
      const result = await sql<IndexRow>`
        SELECT id, path, name, kind FROM search_entries
        WHERE ${KEY} > ${after}${upper}${extra}
        ORDER BY ${KEY} LIMIT ${PAGE}`.execute(db);
      const rows = result.rows;
      if (signal.aborted) return;
      if (rows.length > 0) yield rows;
      if (rows.length < PAGE) return;
      after = walkKey(rows[rows.length - 1]!.path);
    }
  }

  return {
    shared: true,
    async close() {
      // The connection pool belongs to the server.
    },
    releaseMemory() {},
    async getState(key) {
      const result = await sql<{ value: string }>`SELECT value FROM search_state WHERE key = ${key}`.execute(db);
      return result.rows[0]?.value;
    },
    async setState(key, value) {
      await sql`INSERT INTO search_state (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(db);
    },
    async clear() {
      await sql`TRUNCATE search_entries`.execute(db);
      counted = 0;
    },
    async adopt(root) {
      await db.transaction().execute(async (trx) => {
        // One instance at a time decides, so a build another began is never cleared.
        await sql`SELECT pg_advisory_xact_lock(hashtext('burrow.search_index.root'))`.execute(trx);
        const current = await sql<{ value: string }>`SELECT value FROM search_state WHERE key = 'root'`.execute(trx);
        if (current.rows[0]?.value === root) return;
        await sql`DELETE FROM search_entries`.execute(trx);
        await sql`INSERT INTO search_state (key, value) VALUES ('root', ${root}), ('complete', '0') ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(trx);
      });
    },
    count,
    lastCount() {
      return counted;
    },
    merge,
    async removeSubtree(relative) {
      return removeSubtreeIn(db, relative);
    },
    async place(relative, kind, kindOnDisk) {
      return db.transaction().execute(async (trx) => {
        const outcome = { newFolder: false, droppedSubtree: false };
        let parent = parentPath(relative);
        const missing: string[] = [];
        while (parent !== '' && !(await findRow(trx, parent))) {
          missing.push(parent);
          parent = parentPath(parent);
        }
        const folders: { path: string; name: string; kind: EntryKind }[] = [];
        for (const folder of missing.reverse()) {
          if (kindOnDisk(folder) !== EntryKind.dir) break;
          folders.push({ path: folder, name: path.posix.basename(folder), kind: EntryKind.dir });
        }
        await insertMany(trx, folders);
        const known = await findRow(trx, relative);
        if (!known) {
          await insertMany(trx, [{ path: relative, name: path.posix.basename(relative), kind }]);
          outcome.newFolder = kind === EntryKind.dir;
        } else if (known.kind !== kind) {
          if (known.kind === EntryKind.dir) {
            await removeSubtreeIn(trx, relative);
            outcome.droppedSubtree = true;
            await insertMany(trx, [{ path: relative, name: known.name, kind }]);
          } else await sql`UPDATE search_entries SET kind = ${kind} WHERE id = ${known.id}`.execute(trx);
          outcome.newFolder = kind === EntryKind.dir;
        }
        return outcome;
      });
    },
    search(prefix, query, signal, options) {
      return search(prefix, query, signal, options);
    },
    async allRows() {
      return rowsAfter(db, '', undefined, 2 ** 31 - 1);
    },
  };
}
