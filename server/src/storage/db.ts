import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return db;
}

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error | undefined)?.message ?? 'unknown error'}`);
  }
}
