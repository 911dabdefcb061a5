import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';

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
