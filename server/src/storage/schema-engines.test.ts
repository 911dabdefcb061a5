import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.js';
import { acquireTestCluster, type TestCluster } from '../test-support/postgres.js';

/**
 * The same migrations must give the same schema on both engines: tables, columns with their
 * normalized types, nullability and defaults, primary keys, unique constraints and indexes.
 */

type Column = { name: string; type: string; nullable: boolean; primaryKey: boolean; default: string | null };
type Index = { name: string; unique: boolean; columns: string[] };
type Schema = Record<string, { columns: Column[]; indexes: Index[]; uniques: string[][] }>;

const IGNORED = (table: string) => table.startsWith('kysely_') || table.startsWith('sqlite_') || table.startsWith('search_names');

function normalizeType(type: string): string {
  const lower = type.toLowerCase();
  if (lower === 'int4' || lower === 'integer' || lower === 'int') return 'integer';
  if (lower === 'int8' || lower === 'bigint') return 'bigint';
  if (lower.startsWith('varchar') || lower.startsWith('character varying')) return `varchar${/\(\d+\)/.exec(lower)?.[0] ?? ''}`;
  return lower;
}

/** A default as written, without PostgreSQL's casts: `''::text` and `''` are the same default. */
function normalizeDefault(value: string | null): string | null {
  if (value === null) return null;
  return value.replace(/::[a-z ]+(\(\d+\))?$/i, '');
}

async function sqliteSchema(db: Db): Promise<Schema> {
  const schema: Schema = {};
  const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(db);
  for (const { name: table } of tables.rows) {
    if (IGNORED(table)) continue;
    const info = await sql<{ name: string; type: string; notnull: number; pk: number; dflt_value: string | null }>`SELECT * FROM pragma_table_info(${table})`.execute(db);
    const columns = info.rows.map((row) => ({
      name: row.name,
      type: normalizeType(row.type),
      nullable: row.notnull === 0 && row.pk === 0,
      primaryKey: row.pk > 0,
      default: normalizeDefault(row.dflt_value),
    }));
    const indexes: Index[] = [];
    const uniques: string[][] = [];
    const list = await sql<{ name: string; unique: number; origin: string }>`SELECT * FROM pragma_index_list(${table})`.execute(db);
    for (const index of list.rows) {
      const parts = await sql<{ seqno: number; name: string | null }>`SELECT * FROM pragma_index_info(${index.name}) ORDER BY seqno`.execute(db);
      const names = parts.rows.map((part) => part.name ?? '<expression>');
      if (index.origin === 'c') indexes.push({ name: index.name, unique: index.unique === 1, columns: names });
      else if (index.origin === 'u') uniques.push(names);
    }
    schema[table] = { columns: columns.sort(byName), indexes: indexes.sort(byName), uniques: uniques.sort() };
  }
  return schema;
}

async function postgresSchema(db: Db): Promise<Schema> {
  const schema: Schema = {};
  const tables = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  for (const { name: table } of tables.rows) {
    if (IGNORED(table)) continue;
    const primary = await sql<{ name: string }>`
      SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = ${table}::regclass AND i.indisprimary`.execute(db);
    const keys = new Set(primary.rows.map((row) => row.name));
    const info = await sql<{ name: string; type: string; length: number | null; nullable: string; default: string | null }>`
      SELECT column_name AS name, udt_name AS type, character_maximum_length AS length, is_nullable AS nullable, column_default AS default
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table}`.execute(db);
    const columns = info.rows.map((row) => ({
      name: row.name,
      type: normalizeType(row.type + (row.length ? `(${row.length})` : '')),
      nullable: row.nullable === 'YES',
      primaryKey: keys.has(row.name),
      default: normalizeDefault(row.default),
    }));
    const list = await sql<{ name: string; unique: boolean; primary: boolean; constraint: string | null; columns: string[] | string }>`
      SELECT c.relname AS name, i.indisunique AS unique, i.indisprimary AS primary, con.conname AS constraint,
        array(SELECT coalesce(a.attname, '<expression>') FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
              LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum AND k.attnum > 0 ORDER BY k.n) AS columns
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.contype = 'u'
      WHERE i.indrelid = ${table}::regclass`.execute(db);
    const indexes: Index[] = [];
    const uniques: string[][] = [];
    for (const index of list.rows) {
      const names = Array.isArray(index.columns) ? index.columns : String(index.columns).replace(/^\{|\}$/g, '').split(',').map((name) => name.replace(/^"|"$/g, ''));
      if (index.primary) continue;
      if (index.constraint) uniques.push(names);
      else indexes.push({ name: index.name, unique: index.unique, columns: names });
    }
    schema[table] = { columns: columns.sort(byName), indexes: indexes.sort(byName), uniques: uniques.sort() };
  }
  return schema;
}

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

describe('the schema on SQLite and PostgreSQL', () => {
  let cluster: TestCluster;
  let dir: string;
  let sqlite: Db;
  let postgres: Db;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-schema-'));
    cluster = await acquireTestCluster();
    sqlite = await openDatabase(path.join(dir, 'burrow.db'));
    postgres = await openDatabase(await cluster.createDatabase('schema'));
  }, 120_000);
  afterAll(async () => {
    await sqlite?.destroy();
    await postgres?.destroy();
    await cluster?.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has the same tables, columns, types, nullability, defaults, keys and indexes', async () => {
    const onSqlite = await sqliteSchema(sqlite);
    const onPostgres = await postgresSchema(postgres);
    // The one intended difference: substring search over names uses an FTS5 table on SQLite
    // (not a table of the schema proper) and a pg_trgm index on PostgreSQL.
    const trigram = onPostgres.search_entries!.indexes.find((index) => index.name === 'search_entries_name_trgm');
    expect(trigram).toEqual({ name: 'search_entries_name_trgm', unique: false, columns: ['name_lower'] });
    onPostgres.search_entries!.indexes = onPostgres.search_entries!.indexes.filter((index) => index !== trigram);
    expect(Object.keys(onPostgres).sort()).toEqual(Object.keys(onSqlite).sort());
    for (const table of Object.keys(onSqlite)) expect({ table, ...onPostgres[table] }).toEqual({ table, ...onSqlite[table] });
    // And it is not vacuous: the tables Burrow relies on are there.
    expect(Object.keys(onSqlite)).toEqual(expect.arrayContaining(['users', 'settings', 'shares', 'uploads', 'audit_log', 'api_tokens', 'trash']));
    expect(onSqlite.users!.indexes).toEqual([{ name: 'users_username_unique', unique: true, columns: ['username'] }]);
  });

  it('numbers generated ids the same way, from 1', async () => {
    for (const db of [sqlite, postgres]) {
      const entry = { time: 1, user_id: null, username: 'a', client: 'web', action: 'x', path: '/', destination: '', outcome: 'ok', status: 200, details: '{}' };
      const first = await db.insertInto('audit_log').values(entry).returning('id').executeTakeFirstOrThrow();
      expect(Number(first.id)).toBe(1);
      await db.deleteFrom('audit_log').execute();
    }
  });
});
