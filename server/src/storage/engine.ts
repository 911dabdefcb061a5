import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The database engines Burrow runs on: embedded SQLite (the default) or PostgreSQL. */
export type Engine = 'sqlite' | 'postgres';

/** The engine behind a database handle (or a migration's schema handle). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations hand in handles of an unknown schema
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * After rows were written with explicit ids, moves PostgreSQL's generator for `table.id` past
 * the largest one, so the next generated id is free (SQLite always continues after the largest).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the table is named at run time
export async function syncGeneratedIds(db: Kysely<any>, table: string): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT max(id) FROM ${sql.table(table)}), 1), (SELECT max(id) IS NOT NULL FROM ${sql.table(table)}))`.execute(db);
}
