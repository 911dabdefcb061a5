import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations.js';
import { isPostgresUrl } from '../config.js';

export { engineOf } from './engine.js';

export type Db = Kysely<Database>;

export type OpenOptions = {
  /** Connections kept open to PostgreSQL; SQLite always uses one. */
  poolSize?: number;
};

/**
 * Opens the database named by `database` and applies pending migrations: the embedded SQLite
 * file (WAL) by default, PostgreSQL for a `postgres://` URL.
 */
export async function openDatabase(database: string, options: OpenOptions = {}): Promise<Db> {
  if (isPostgresUrl(database)) return openPostgres(database, options);
  return openSqlite(database);
}

/** int8 (bigint) and numeric results arrive as text from pg; Burrow's values fit in a double. */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

async function openPostgres(url: string, options: OpenOptions): Promise<Db> {
  // Loaded only here: a SQLite server never pays for the PostgreSQL driver.
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
      return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types: types as never });
  // An idle connection that the server drops must not take the process down with it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

async function openSqlite(file: string): Promise<Db> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  return db;
}

/** Distinct statements kept prepared; the queries Burrow builds number a few dozen. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The database as the query builder sees it, keeping statements prepared by their SQL text:
 * preparing was the biggest part of a short query's cost (every authenticated request and every
 * upload chunk runs a few). A statement that is still being iterated is not handed out twice.
 * Changes to the schema are safe: SQLite prepares a cached statement again when it must.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      const cached = statements.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (!cached) {
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error | undefined)?.message ?? 'unknown error'}`);
  }
}
