import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations.js';

export type Db = Kysely<Database>;

/** Opens the embedded SQLite database (WAL) and applies pending migrations. */
export async function openDatabase(file: string): Promise<Db> {
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
