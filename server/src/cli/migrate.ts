import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { isPostgresUrl } from '../config.js';
import { openDatabase, type Db } from '../storage/db.js';
import { engineOf, syncGeneratedIds } from '../storage/engine.js';

/**
 * `burrow migrate --from <database> --to <database>`: copies everything Burrow keeps in one
 * database into another, typically the embedded SQLite file into PostgreSQL. Both are brought to
 * the latest schema first, so every table exists on both sides with the same columns. The copy
 * runs in one transaction on the target: it lands whole or not at all.
 *
 * The name search index is not copied: it is derived from the files and rebuilt by the server
 * on its first start.
 */

/**
 * Never copied: the migrator's bookkeeping, the derived search index, the running instances'
 * own coordination (when periodic jobs last ran, claims on work in progress), and sign-in state
 * that lasts minutes (guess counts, two-factor challenges, single sign-on flows).
 */
const SKIPPED = new Set([
  'kysely_migration',
  'kysely_migration_lock',
  'search_entries',
  'search_state',
  'cluster_jobs',
  'cluster_leases',
  'sign_in_limits',
  'two_factor_challenges',
  'sign_in_flows',
  // WebDAV locks live in memory with SQLite (their table stays empty) and end with the server.
  'webdav_locks',
]);

/** Rows per INSERT: well below PostgreSQL's 65,535 parameters for Burrow's widest table. */
const BATCH = 500;

export type MigrateReport = { tables: { table: string; rows: number }[] };

/** A database as it may be printed: the password of a URL is left out. */
export function describeDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  try {
    const url = new URL(database);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}

/** The tables to copy: those of the schema, less bookkeeping, the search index and engine internals. */
async function tablesOf(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .filter((table) => !table.isView && !SKIPPED.has(table.name) && !table.name.startsWith('search_names') && !table.name.startsWith('sqlite_'))
    .map((table) => table.name)
    .sort();
}

async function rowCount(db: Db, table: string): Promise<number> {
  const row = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

export async function migrateDatabase(from: string, to: string, options: { poolSize?: number } = {}): Promise<MigrateReport> {
  if (!from || !to) throw new Error('give both --from and --to, e.g. burrow migrate --from burrow.db --to postgres://burrow@localhost/burrow');
  const sameFile = !isPostgresUrl(from) && !isPostgresUrl(to) && path.resolve(from) === path.resolve(to);
  if (from === to || sameFile) throw new Error('--from and --to name the same database');
  // Opening a missing SQLite file would create an empty one and copy nothing.
  if (!isPostgresUrl(from) && !fs.existsSync(from)) throw new Error(`${from} does not exist: --from must name an existing Burrow database`);

  const source = await openDatabase(from, options);
  try {
    const target = await openDatabase(to, options);
    try {
      const tables = await tablesOf(source);
      const targetTables = new Set(await tablesOf(target));
      const missing = tables.filter((table) => !targetTables.has(table));
      if (missing.length) throw new Error(`the target lacks tables ${missing.join(', ')}; is it a Burrow database of another version?`);

      const filled: string[] = [];
      for (const table of targetTables) {
        const rows = await rowCount(target, table);
        if (rows > 0) filled.push(`${table} (${rows})`);
      }
      if (filled.length) {
        throw new Error(
          `${describeDatabase(to)} already holds data in ${filled.join(', ')}; burrow migrate copies only into an empty database, so nothing was changed`,
        );
      }

      const report: MigrateReport = { tables: [] };
      await target.transaction().execute(async (trx) => {
        for (const table of tables) {
          let copied = 0;
          let batch: Record<string, unknown>[] = [];
          const flush = async () => {
            if (!batch.length) return;
            await trx.insertInto(table as never).values(batch as never).execute();
            copied += batch.length;
            batch = [];
          };
          // SQLite streams rows from its file; a PostgreSQL source is read whole (pg streams need a cursor package).
          const query = source.selectFrom(table as never).selectAll();
          const rows = engineOf(source) === 'sqlite' ? query.stream(BATCH) : await query.execute();
          for await (const row of rows) {
            batch.push(row as Record<string, unknown>);
            if (batch.length >= BATCH) await flush();
          }
          await flush();
          report.tables.push({ table, rows: copied });
        }
        // Rows kept their ids; PostgreSQL's generators must continue after them.
        if (engineOf(trx) === 'postgres') for (const table of ['users', 'audit_log']) if (tables.includes(table)) await syncGeneratedIds(trx, table);
      });
      return report;
    } finally {
      await target.destroy();
    }
  } finally {
    await source.destroy();
  }
}
