import SQLite from 'better-sqlite3';
import type { EntryKind } from './tree-walker.js';
import { walkKey } from './walk-order.js';

/**
 * The name index, on its own connection to the server database. This is the one place that
 * speaks SQLite directly: the index needs prepared statements in synchronous batches (a million
 * rows), an index on an expression (walk order) and an FTS5 trigram table for substring search,
 * none of which a dialect-neutral builder can express or afford. Schema: migration
 * `0002_search_index`.
 */

/** The walk-order key of a row, exactly as the `search_entries_walk` index computes it. */
const KEY = `replace(replace(replace(path, char(2), char(2, 2)), char(1), char(2, 1)), '/', char(1))`;

export type IndexRow = { id: number; path: string; name: string; kind: EntryKind };

export type NewEntry = { path: string; name: string; kind: EntryKind };

/** A coarse, exact-or-wider SQL filter; the caller checks every row it gets back precisely. */
export type RowFilter = {
  /** Sub-strings of which ANY must occur in the name; none means no name condition. */
  terms: string[];
  /** Terms are matched against the name as is, otherwise against its lower-case form. */
  caseSensitive: boolean;
  /** Lower-case extensions (with the dot) of which ANY must match; undefined means no condition. */
  extensions?: string[];
};

/** Key bounds, both exclusive; `high` undefined means no upper bound. */
export type KeyRange = { low: string; high?: string };

/** The extension as `path.extname` would see it on the last dot, lower-cased; '' when none. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * FTS5 query for "any of these terms may occur": each term as all of its trigrams. Without
 * positions (detail=none) that is a superset of the names holding the term, checked afterwards;
 * every trigram kept makes it tighter, and reading rows costs far more than intersecting lists.
 */
export function trigramQuery(terms: string[]): string {
  const groups = terms.map((term) => {
    // The tokenizer counts characters, not UTF-16 units.
    const chars = Array.from(term);
    const grams = new Set<string>();
    for (let index = 0; index + 3 <= chars.length; index++) grams.add(chars.slice(index, index + 3).join(''));
    return [...grams].map((gram) => `"${gram.replace(/"/g, '""')}"`).join(' AND ');
  });
  return groups.length === 1 ? groups[0]! : groups.map((group) => `(${group})`).join(' OR ');
}

export type SearchRepository = ReturnType<typeof openSearchRepository>;

export function openSearchRepository(file: string) {
  const db = new SQLite(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  // A larger page cache keeps the trigram index's merges off the disk during a build.
  db.pragma('cache_size = -16384');
  // Candidate lists of large searches live in memory, one table for all, keyed by search.
  db.pragma('temp_store = MEMORY');
  db.exec('CREATE TEMP TABLE IF NOT EXISTS search_hits (query INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (query, id)) WITHOUT ROWID');

  const statements = new Map<string, SQLite.Statement>();
  function prepare(sql: string): SQLite.Statement {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size > 200) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }

  const insertEntry = db.prepare('INSERT INTO search_entries (path, name, name_lower, ext, kind) VALUES (?, ?, ?, ?, ?)');
  const insertName = db.prepare('INSERT INTO search_names (rowid, name_lower) VALUES (?, ?)');
  const deleteEntry = db.prepare('DELETE FROM search_entries WHERE id = ?');
  const deleteName = db.prepare('DELETE FROM search_names WHERE rowid = ?');

  /** SQL conditions and parameters for a filter, to AND onto a query. */
  function filterSql(filter: RowFilter): { sql: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (filter.terms.length > 0) {
      const column = filter.caseSensitive ? 'name' : 'name_lower';
      parts.push(`(${filter.terms.map(() => `instr(${column}, ?) > 0`).join(' OR ')})`);
      params.push(...filter.terms);
    }
    if (filter.extensions) {
      if (filter.extensions.length === 0) parts.push('0');
      else {
        parts.push(`ext IN (${filter.extensions.map(() => '?').join(', ')})`);
        params.push(...filter.extensions);
      }
    }
    return { sql: parts.length ? ' AND ' + parts.join(' AND ') : '', params };
  }

  function rangeSql(range: KeyRange): { sql: string; params: unknown[] } {
    if (range.high === undefined) return { sql: `${KEY} > ?`, params: [range.low] };
    return { sql: `${KEY} > ? AND ${KEY} < ?`, params: [range.low, range.high] };
  }

  const repository = {
    close(): void {
      db.close();
    },

    /**
     * Hands the page cache back to the system (SQLite's shrink_memory). A build fills up to
     * 16 MiB of it; an idle server keeps none, and the next search reads its pages again.
     */
    releaseMemory(): void {
      db.pragma('shrink_memory');
    },

    transaction<T>(work: () => T): T {
      return db.transaction(work)();
    },

    getState(key: string): string | undefined {
      const row = prepare('SELECT value FROM search_state WHERE key = ?').get(key) as { value: string } | undefined;
      return row?.value;
    },

    setState(key: string, value: string): void {
      prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    },

    /** Forgets every entry (the root moved, or the index is being rebuilt from nothing). */
    clear(): void {
      db.transaction(() => {
        db.prepare('DELETE FROM search_entries').run();
        db.prepare(`INSERT INTO search_names (search_names) VALUES ('delete-all')`).run();
      })();
    },

    count(): number {
      return (prepare('SELECT count(*) AS n FROM search_entries').get() as { n: number }).n;
    },

    find(path: string): IndexRow | undefined {
      return prepare(`SELECT id, path, name, kind FROM search_entries WHERE ${KEY} = ? AND path = ?`).get(walkKey(path), path) as IndexRow | undefined;
    },

    insert(entry: NewEntry): number {
      const nameLower = entry.name.toLowerCase();
      const id = Number(insertEntry.run(entry.path, entry.name, nameLower, extensionOf(entry.name), entry.kind).lastInsertRowid);
      insertName.run(id, nameLower);
      return id;
    },

    setKind(id: number, kind: EntryKind): void {
      prepare('UPDATE search_entries SET kind = ? WHERE id = ?').run(kind, id);
    },

    remove(id: number): void {
      deleteEntry.run(id);
      deleteName.run(id);
    },

    /** Removes an entry and everything below it; returns how many rows went. */
    removeSubtree(path: string): number {
      const key = walkKey(path);
      return db.transaction(() => {
        const below = [key + '\x01', key + '\x02'];
        db.prepare(`DELETE FROM search_names WHERE rowid IN (SELECT id FROM search_entries WHERE ${KEY} > ? AND ${KEY} < ?)`).run(...below);
        let removed = db.prepare(`DELETE FROM search_entries WHERE ${KEY} > ? AND ${KEY} < ?`).run(...below).changes;
        const own = repository.find(path);
        if (own) {
          repository.remove(own.id);
          removed++;
        }
        return removed;
      })();
    },

    /** Rows after key `after` (exclusive) up to `until`, in walk order, at most `limit`. */
    rowsAfter(after: string, until: { key: string; inclusive: boolean } | undefined, limit: number): IndexRow[] {
      if (!until) return prepare(`SELECT id, path, name, kind FROM search_entries WHERE ${KEY} > ? ORDER BY ${KEY} LIMIT ?`).all(after, limit) as IndexRow[];
      const op = until.inclusive ? '<=' : '<';
      return prepare(`SELECT id, path, name, kind FROM search_entries WHERE ${KEY} > ? AND ${KEY} ${op} ? ORDER BY ${KEY} LIMIT ?`).all(after, until.key, limit) as IndexRow[];
    },

    /** Ids the trigram index offers for `match`, at most `limit`. */
    candidateIds(match: string, limit: number): number[] {
      return prepare('SELECT rowid FROM search_names WHERE search_names MATCH ? LIMIT ?').pluck().all(match, limit) as number[];
    },

    /** Rows with these ids in `range`, filtered, in walk order. */
    rowsWithIds(ids: number[], range: KeyRange, filter: RowFilter): IndexRow[] {
      const where = rangeSql(range);
      const extra = filterSql(filter);
      const sql = `SELECT id, path, name, kind FROM search_entries WHERE id IN (SELECT value FROM json_each(?)) AND ${where.sql}${extra.sql} ORDER BY ${KEY}`;
      return prepare(sql).all(JSON.stringify(ids), ...where.params, ...extra.params) as IndexRow[];
    },

    /** Sets aside every candidate for `match` under the number `query`; returns how many. */
    stageHits(query: number, match: string): number {
      return prepare('INSERT OR IGNORE INTO search_hits (query, id) SELECT ?, rowid FROM search_names WHERE search_names MATCH ?').run(query, match).changes;
    },

    /** Candidates staged by all searches (zero when none is running). */
    stagedCount(): number {
      return prepare('SELECT count(*) FROM search_hits').pluck().get() as number;
    },

    releaseHits(query: number): void {
      prepare('DELETE FROM search_hits WHERE query = ?').run(query);
    },

    /**
     * Staged candidates of `query` with keys in (after, until] (or to the end of `range`),
     * filtered, in walk order. The walk-order index alone decides membership (it holds the id),
     * so only candidates cost a row read.
     */
    hitRows(query: number, after: string, until: string | undefined, range: KeyRange, filter: RowFilter): IndexRow[] {
      const extra = filterSql(filter);
      let bound = '';
      const params: unknown[] = [after];
      if (until !== undefined) {
        bound = ` AND ${KEY} <= ?`;
        params.push(until);
      } else if (range.high !== undefined) {
        bound = ` AND ${KEY} < ?`;
        params.push(range.high);
      }
      const sql = `SELECT id, path, name, kind FROM search_entries WHERE ${KEY} > ?${bound} AND EXISTS (SELECT 1 FROM search_hits WHERE query = ? AND search_hits.id = search_entries.id)${extra.sql} ORDER BY ${KEY}`;
      return prepare(sql).all(...params, query, ...extra.params) as IndexRow[];
    },

    /**
     * The key `size` rows after `after` within `range`, or undefined when fewer remain. Lets a
     * scan advance in slices of bounded work, whatever share of rows match.
     */
    sliceEnd(after: string, range: KeyRange, size: number): string | undefined {
      const high = range.high === undefined ? '' : ` AND ${KEY} < ?`;
      const params: unknown[] = range.high === undefined ? [after, size - 1] : [after, range.high, size - 1];
      const row = prepare(`SELECT ${KEY} AS k FROM search_entries WHERE ${KEY} > ?${high} ORDER BY ${KEY} LIMIT 1 OFFSET ?`).get(...params) as { k: string } | undefined;
      return row?.k;
    },

    /** Filtered rows with keys in (after, until] (or to the end of `range`), in walk order. */
    scanRows(after: string, until: string | undefined, range: KeyRange, filter: RowFilter): IndexRow[] {
      const extra = filterSql(filter);
      let bound = '';
      const params: unknown[] = [after];
      if (until !== undefined) {
        bound = ` AND ${KEY} <= ?`;
        params.push(until);
      } else if (range.high !== undefined) {
        bound = ` AND ${KEY} < ?`;
        params.push(range.high);
      }
      const sql = `SELECT id, path, name, kind FROM search_entries WHERE ${KEY} > ?${bound}${extra.sql} ORDER BY ${KEY}`;
      return prepare(sql).all(...params, ...extra.params) as IndexRow[];
    },

    /** Query plans, for tests that check the indexes are really used. */
    explain(plan: 'candidates' | 'rows' | 'hits' | 'slice'): string[] {
      const text = {
        candidates: `SELECT rowid FROM search_names WHERE search_names MATCH 'abc' LIMIT 10`,
        rows: `SELECT id FROM search_entries WHERE id IN (SELECT value FROM json_each('[1,2]')) AND ${KEY} > 'a' ORDER BY ${KEY}`,
        hits: `SELECT id, path FROM search_entries WHERE ${KEY} > 'a' AND ${KEY} <= 'b' AND EXISTS (SELECT 1 FROM search_hits WHERE query = 1 AND search_hits.id = search_entries.id) ORDER BY ${KEY}`,
        slice: `SELECT ${KEY} AS k FROM search_entries WHERE ${KEY} > 'a' ORDER BY ${KEY} LIMIT 1 OFFSET 10`,
      }[plan];
      return (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all() as { detail: string }[]).map((row) => row.detail);
    },
  };
  return repository;
}
