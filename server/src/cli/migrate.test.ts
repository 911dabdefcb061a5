import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../storage/db.js';
import { acquireTestCluster, type TestCluster } from '../test-support/postgres.js';
import { describeDatabase, migrateDatabase } from './migrate.js';

const user = (id: number, username: string) => ({
  id, username, password_hash: `hash-${username}`, scope: `/${username}`, locale: 'en', view_mode: 'list', single_click: 0, redirect_after_copy_move: 1,
  hide_dotfiles: 1, date_format: 0, ace_editor_theme: '', sorting_by: 'name', sorting_asc: 1, lock_password: 0, perm: '{"admin":false}',
  commands: '[]', rules: '[]', tokens_valid_after: 1_700_000_000_000, kept_token_jti: null, updated_at: 1_700_000_000_001, created_at: 1_700_000_000_002,
});

/** A SQLite database holding a row in every table Burrow keeps. */
async function filledSqlite(file: string) {
  const db = await openDatabase(file);
  await db.insertInto('users').values([user(1, 'admin'), user(5, 'alice')]).execute();
  await db.insertInto('settings').values([{ key: 'signup', value: 'false' }, { key: 'branding', value: '{"name":"Burrow ✓"}' }]).execute();
  await db.insertInto('revoked_tokens').values({ jti: 'j1', expires_at: 2_000_000_000_000 }).execute();
  await db.insertInto('shares').values({
    hash: 'h1', path: '/a.txt', user_id: 5, expire: 0, password_hash: '', token: '', created_at: 3, target_dev: '2049', target_ino: '18446744073709551615',
    target_birth: null, upload_only: 1, note: 'drop files', max_file_size: 5_000_000_000, max_total_size: 0, max_files: 3,
  }).execute();
  await db.insertInto('file_request_uploads').values({ upload_id: 'u1', share_hash: 'h1', path: '/in/x', length: 9, created_at: 4, finished_at: null }).execute();
  await db.insertInto('uploads').values({ id: 'up1', user_id: 5, path: '/big.iso', staging_path: '/s/1', length: 8_000_000_000, offset: 4_000_000_000, override: 0, created_at: 5, updated_at: 6 }).execute();
  await db.insertInto('webdav_properties').values({ path: '/a.txt', namespace: 'urn:x', name: 'color', xml: '<color>red</color>' }).execute();
  await db.insertInto('trash').values({ id: 't1', user_id: 5, name: 'old', path: '/old', real_path: '/alice/old', stored_path: '/.trash/t1', is_dir: 1, size: 10, deleted_at: 7, deleted_by: 'alice' }).execute();
  await db.insertInto('two_factor').values({ user_id: 5, secret: 'sealed', enabled_at: 8, required: 1, last_step: 9 }).execute();
  await db.insertInto('recovery_codes').values({ user_id: 5, code_hash: 'c1' }).execute();
  await db.insertInto('api_tokens').values({ id: 'k1', user_id: 5, name: 'backup', token_hash: 'th', perm: '{}', created_at: 10, expires_at: null, last_used_at: 11 }).execute();
  await db.insertInto('oidc_identities').values({ issuer: 'https://id.example', subject: 's1', user_id: 5, created_at: 12 }).execute();
  for (let index = 0; index < 1200; index++) {
    await db.insertInto('audit_log').values({ time: 1000 + index, user_id: 5, username: 'alice', client: 'web', action: 'file.upload', path: `/f${index}`, destination: '', outcome: 'ok', status: 201, details: '{}' }).execute();
  }
  await db.insertInto('search_entries').values({ path: 'a.txt', name: 'a.txt', name_lower: 'a.txt', ext: '.txt', kind: 0 }).execute();
  await db.destroy();
}

describe('burrow migrate', () => {
  let cluster: TestCluster;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-migrate-'));
    cluster = await acquireTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table from SQLite into an empty PostgreSQL database, exactly', async () => {
    const file = path.join(dir, 'full.db');
    await filledSqlite(file);
    const url = await cluster.createDatabase('full');
    const report = await migrateDatabase(file, url);
    expect(report.tables.find((table) => table.table === 'audit_log')?.rows).toBe(1200);
    expect(report.tables.map((table) => table.table)).not.toContain('search_entries');

    const source = await openDatabase(file);
    const target = await openDatabase(url);
    try {
      for (const { table, rows } of report.tables) {
        const before = await source.selectFrom(table as never).selectAll().execute();
        const after = await target.selectFrom(table as never).selectAll().execute();
        expect(after.length, table).toBe(rows);
        const order = (list: unknown[]) => list.map((row) => JSON.stringify(Object.entries(row as object).sort())).sort();
        expect(order(after), table).toEqual(order(before));
      }
      // Every table of the schema but the search index was copied, none empty.
      expect(report.tables.every((table) => table.rows > 0)).toBe(true);
      // New rows continue after the copied ids.
      const next = await target.insertInto('users').values({ ...user(0, 'carol'), id: undefined } as never).returning('id').executeTakeFirstOrThrow();
      expect(Number(next.id)).toBe(6);
      const audit = await target
        .insertInto('audit_log')
        .values({ time: 1, user_id: null, username: 'x', client: 'web', action: 'a', path: '/', destination: '', outcome: 'ok', status: 200, details: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(Number(audit.id)).toBe(1201);
    } finally {
      await source.destroy();
      await target.destroy();
    }
  });

  it('refuses a target that holds data, and changes nothing', async () => {
    const file = path.join(dir, 'refused.db');
    await filledSqlite(file);
    const url = await cluster.createDatabase('refused');
    const target = await openDatabase(url);
    await target.insertInto('settings').values({ key: 'existing', value: 'kept' }).execute();
    await target.destroy();
    await expect(migrateDatabase(file, url)).rejects.toThrow(/already holds data in settings \(1\).*only into an empty database/);
    const after = await openDatabase(url);
    try {
      expect(await after.selectFrom('settings').selectAll().execute()).toEqual([{ key: 'existing', value: 'kept' }]);
      expect(await after.selectFrom('users').selectAll().execute()).toEqual([]);
    } finally {
      await after.destroy();
    }
  });

  it('copies all or nothing: a failure midway leaves the target empty', async () => {
    const file = path.join(dir, 'broken.db');
    await filledSqlite(file);
    // A value PostgreSQL's integer column cannot take (SQLite stores it as given).
    const source = await openDatabase(file);
    await source.updateTable('trash').set({ size: 'not a number' as never }).execute();
    await source.destroy();
    const url = await cluster.createDatabase('broken');
    await expect(migrateDatabase(file, url)).rejects.toThrow();
    const target = await openDatabase(url);
    try {
      for (const table of ['users', 'settings', 'api_tokens', 'audit_log']) expect(await target.selectFrom(table as never).selectAll().execute(), table).toEqual([]);
    } finally {
      await target.destroy();
    }
  });

  it('refuses a missing source, the same database twice, and hides passwords when naming a URL', async () => {
    await expect(migrateDatabase(path.join(dir, 'missing.db'), 'postgres://u@127.0.0.1:1/x')).rejects.toThrow(/missing\.db does not exist/);
    await expect(migrateDatabase(path.join(dir, 'a.db'), path.join(dir, '.', 'a.db'))).rejects.toThrow(/same database/);
    expect(describeDatabase('postgres://burrow:secret@db.example:5432/burrow')).toBe('postgres://burrow:***@db.example:5432/burrow');
  });
});
