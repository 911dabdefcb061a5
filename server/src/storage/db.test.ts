import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { engineOf, openDatabase, withStatementCache } from './db.js';
import { acquireTestCluster, type TestCluster } from '../test-support/postgres.js';

describe('openDatabase', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-db-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file and its folder, in WAL mode with foreign keys on', async () => {
    const file = path.join(dir, 'nested', 'burrow.db');
    const db = await openDatabase(file);
    try {
      expect(fs.existsSync(file)).toBe(true);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
      expect(keys.rows[0]?.foreign_keys).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it('applies migrations once and keeps data across reopenings', async () => {
    const file = path.join(dir, 'burrow.db');
    const first = await openDatabase(file);
    await first.insertInto('settings').values({ key: 'probe', value: 'kept' }).execute();
    await first.destroy();
    const second = await openDatabase(file);
    try {
      const row = await second.selectFrom('settings').select('value').where('key', '=', 'probe').executeTakeFirst();
      expect(row?.value).toBe('kept');
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(second);
      expect(applied.rows.map((migration) => migration.name)).toContain('0001_initial');
      expect(new Set(applied.rows.map((migration) => migration.name)).size).toBe(applied.rows.length);
    } finally {
      await second.destroy();
    }
  });

  it('refuses a second user with the same username', async () => {
    const db = await openDatabase(':memory:');
    try {
      const row = {
        username: 'bob', password_hash: 'x', scope: '/', locale: 'en', view_mode: 'list', single_click: 0, redirect_after_copy_move: 1,
        hide_dotfiles: 0, date_format: 0, ace_editor_theme: '', sorting_by: 'name', sorting_asc: 0, lock_password: 0, perm: '{}',
        commands: '[]', rules: '[]', tokens_valid_after: 0, updated_at: 0, created_at: 0,
      };
      await db.insertInto('users').values(row).execute();
      await expect(db.insertInto('users').values(row).execute()).rejects.toThrow(/UNIQUE/);
    } finally {
      await db.destroy();
    }
  });
});

describe('withStatementCache', () => {
  it('prepares a statement once per SQL text, again while it is busy, and evicts the oldest', () => {
    const sqlite = new SQLite(':memory:');
    const cache = withStatementCache(sqlite, 2);
    try {
      sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
      const select = cache.prepare('select n from t order by n') as SQLite.Statement;
      expect(cache.prepare('select n from t order by n')).toBe(select);
      const iterator = select.iterate() as IterableIterator<{ n: number }>;
      expect(iterator.next().value).toEqual({ n: 1 });
      // Still iterating: a second use gets a statement of its own and the same answers.
      const second = cache.prepare('select n from t order by n') as SQLite.Statement;
      expect(second).not.toBe(select);
      expect(second.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      iterator.return?.();
      expect(cache.prepare('select n from t order by n')).toBe(select);
      cache.prepare('select 1');
      cache.prepare('select 2');
      expect(cache.prepare('select n from t order by n')).not.toBe(select);
    } finally {
      cache.close();
    }
    expect(sqlite.open).toBe(false);
  });

  it('keeps cached statements right across a schema change', async () => {
    const db = await openDatabase(':memory:');
    try {
      const read = () => db.selectFrom('settings').selectAll().where('key', '=', 'probe').executeTakeFirst();
      await db.insertInto('settings').values({ key: 'probe', value: 'one' }).execute();
      expect((await read())?.value).toBe('one');
      await sql`alter table settings add column extra text default 'x'`.execute(db);
      expect(await read()).toEqual({ key: 'probe', value: 'one', extra: 'x' });
    } finally {
      await db.destroy();
    }
  });
});

describe('openDatabase on PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await acquireTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.release();
  });

  it('applies migrations once, keeps data across reopenings and reads big integers as numbers', async () => {
    const url = await cluster.createDatabase('reopen');
    const first = await openDatabase(url, { poolSize: 2 });
    expect(engineOf(first)).toBe('postgres');
    await first.insertInto('settings').values({ key: 'probe', value: 'kept' }).execute();
    await first.insertInto('revoked_tokens').values({ jti: 'j', expires_at: 2 ** 52 + 1 }).execute();
    await first.destroy();
    const second = await openDatabase(url);
    try {
      expect((await second.selectFrom('settings').select('value').where('key', '=', 'probe').executeTakeFirst())?.value).toBe('kept');
      expect(await second.selectFrom('revoked_tokens').selectAll().execute()).toEqual([{ jti: 'j', expires_at: 2 ** 52 + 1 }]);
      const count = await second.selectFrom('revoked_tokens').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      expect(count.n).toBe(1);
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(second);
      expect(applied.rows.map((migration) => migration.name)).toContain('0010_file_requests');
      expect(new Set(applied.rows.map((migration) => migration.name)).size).toBe(applied.rows.length);
    } finally {
      await second.destroy();
    }
  });

  it('refuses a second user with the same username', async () => {
    const db = await openDatabase(await cluster.createDatabase('unique'));
    try {
      const row = {
        username: 'bob', password_hash: 'x', scope: '/', locale: 'en', view_mode: 'list', single_click: 0, redirect_after_copy_move: 1,
        hide_dotfiles: 0, date_format: 0, ace_editor_theme: '', sorting_by: 'name', sorting_asc: 0, lock_password: 0, perm: '{}',
        commands: '[]', rules: '[]', tokens_valid_after: 0, updated_at: 0, created_at: 0,
      };
      await db.insertInto('users').values(row).execute();
      await expect(db.insertInto('users').values(row).execute()).rejects.toThrow(/users_username_unique/);
    } finally {
      await db.destroy();
    }
  });

  it('fails clearly when the server cannot be reached', async () => {
    await expect(openDatabase('postgres://nobody@127.0.0.1:1/none')).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
