import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rule, TrashItem, TrashList, TrashSettings } from '@burrow/protocol';
import { createFilesHarness, type FilesHarness } from '../files/files.test-support.js';
import type { FileEvent } from '../../storage/file-events.js';

let h: FilesHarness;
let events: FileEvent[];

beforeEach(async () => {
  h = await createFilesHarness();
  events = [];
  h.t.app.services.fileEvents.on((event) => {
    events.push(event);
  });
});
afterEach(async () => {
  await h?.close();
});

const deny = (rulePath: string): Rule => ({ regex: false, allow: false, path: rulePath, regexp: { raw: '' } });

async function listTrash(token: string, query = ''): Promise<TrashList> {
  const response = await h.t.request(token, { method: 'GET', url: `/api/trash${query ? `?${query}` : ''}` });
  expect(response.statusCode).toBe(200);
  return response.json() as TrashList;
}

const names = (list: TrashList) => list.items.map((item) => item.name);

async function remove(token: string, virtual: string): Promise<void> {
  const response = await h.api(token, 'DELETE', virtual);
  expect(response.statusCode).toBe(204);
}

async function itemNamed(token: string, name: string): Promise<TrashItem> {
  const item = (await listTrash(token)).items.find((entry) => entry.name === name);
  if (!item) throw new Error(`${name} is not in the trash`);
  return item;
}

function restore(token: string, id: string, body?: object) {
  return h.t.request(token, { method: 'POST', url: `/api/trash/${id}/restore`, ...(body ? { payload: body } : {}) });
}

async function setTrash(trash: Partial<TrashSettings>): Promise<void> {
  const current = h.t.app.services.settings.get();
  await h.t.app.services.settings.save({ ...current, trash: { ...current.trash, ...trash } });
}

/** The rows of the trash table, to find where an item is kept. */
async function storedPathOf(id: string): Promise<string> {
  const row = await h.t.app.services.db.selectFrom('trash').select('stored_path').where('id', '=', id).executeTakeFirstOrThrow();
  return row.stored_path;
}

describe('DELETE /api/resources into the trash', () => {
  it('moves a file and a folder out of the scope into the owner trash, keeping where they were', async () => {
    h.put('docs/report.txt', 'twelve bytes');
    h.put('photos/a.jpg', '1234');
    h.put('photos/b/c.jpg', '123456');
    await remove(h.admin, '/docs/report.txt');
    await remove(h.admin, '/photos');
    expect(h.exists('docs/report.txt')).toBe(false);
    expect(h.exists('photos')).toBe(false);

    const list = await listTrash(h.admin);
    expect(list.total).toBe(2);
    expect(list.totalSize).toBe(22);
    const report = list.items.find((item) => item.name === 'report.txt')!;
    expect(report).toMatchObject({ path: '/docs/report.txt', isDir: false, size: 12, deletedBy: 'admin', extension: '.txt' });
    expect(Date.now() - Date.parse(report.deleted)).toBeLessThan(60_000);
    expect(list.items.find((item) => item.name === 'photos')).toMatchObject({ path: '/photos', isDir: true, size: 10, extension: '' });

    // Kept under the cache folder, per user, never inside the served root.
    const stored = await storedPathOf(report.id);
    expect(stored.startsWith(path.join(fs.realpathSync(h.t.config.cacheDir), 'trash', '1') + path.sep)).toBe(true);
    expect(fs.readFileSync(stored, 'utf8')).toBe('twelve bytes');
    const row = await h.t.app.services.db.selectFrom('trash').selectAll().where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row.real_path).toBe(path.join(fs.realpathSync(h.t.root), 'docs', 'report.txt'));

    // Listeners (search index, thumbnails, share links, usage) see deletes as before.
    expect(events).toEqual([expect.objectContaining({ kind: 'deleted', virtual: '/docs/report.txt', isDir: false }), expect.objectContaining({ kind: 'deleted', virtual: '/photos', isDir: true })]);
  });

  it('keeps the status codes of a delete: 403 for the root and without delete, 404 for a missing item', async () => {
    const reader = await h.user('reader', { perm: { delete: false } });
    h.put('reader-file.txt', 'x');
    expect((await h.api(h.admin, 'DELETE', '/')).statusCode).toBe(403);
    expect((await h.api(reader, 'DELETE', '/reader-file.txt')).statusCode).toBe(403);
    expect((await h.api(h.admin, 'DELETE', '/missing.txt')).statusCode).toBe(404);
    expect((await listTrash(h.admin)).total).toBe(0);
  });

  it('removes at once when the trash is off', async () => {
    await setTrash({ enabled: false });
    h.put('gone.txt', 'x');
    await remove(h.admin, '/gone.txt');
    expect(h.exists('gone.txt')).toBe(false);
    expect((await listTrash(h.admin)).total).toBe(0);
    expect(fs.existsSync(path.join(h.t.config.cacheDir, 'trash', '1'))).toBe(false);
  });

  it('retires the share links of a trashed item, and a restore does not revive them', async () => {
    h.put('shared/file.txt', 'x');
    const created = await h.t.request(h.admin, { method: 'POST', url: '/api/share/shared/file.txt', payload: {} });
    expect(created.statusCode).toBe(200);
    const hash = (created.json() as { hash: string }).hash;
    expect((await h.t.request(undefined, { method: 'GET', url: `/api/public/share/${hash}` })).statusCode).toBe(200);
    await remove(h.admin, '/shared');
    expect((await h.t.request(undefined, { method: 'GET', url: `/api/public/share/${hash}` })).statusCode).toBe(404);
    const item = await itemNamed(h.admin, 'shared');
    expect((await restore(h.admin, item.id)).statusCode).toBe(200);
    expect(h.read('shared/file.txt')).toBe('x');
    expect((await h.t.request(undefined, { method: 'GET', url: `/api/public/share/${hash}` })).statusCode).toBe(404);
    expect((await h.t.request(h.admin, { method: 'GET', url: '/api/shares' })).json()).toEqual([]);
  });
});

describe('GET /api/trash', () => {
  beforeEach(async () => {
    h.put('b-medium.txt', '12345');
    await remove(h.admin, '/b-medium.txt');
    h.put('C-large.txt', '1234567890');
    await remove(h.admin, '/C-large.txt');
    h.put('a-small.txt', '1');
    await remove(h.admin, '/a-small.txt');
    // Distinct deletion times, oldest first in the order above.
    const rows = await h.t.app.services.db.selectFrom('trash').select(['id', 'name']).execute();
    const order = ['b-medium.txt', 'C-large.txt', 'a-small.txt'];
    for (const row of rows) await h.t.app.services.db.updateTable('trash').set({ deleted_at: 1_700_000_000_000 + order.indexOf(row.name) * 1000 }).where('id', '=', row.id).execute();
  });

  it('sorts by deletion time (newest first by default), name (case-insensitively) and size, either way', async () => {
    expect(names(await listTrash(h.admin))).toEqual(['a-small.txt', 'C-large.txt', 'b-medium.txt']);
    expect(names(await listTrash(h.admin, 'sort=deleted&asc=true'))).toEqual(['b-medium.txt', 'C-large.txt', 'a-small.txt']);
    expect(names(await listTrash(h.admin, 'sort=name'))).toEqual(['a-small.txt', 'b-medium.txt', 'C-large.txt']);
    expect(names(await listTrash(h.admin, 'sort=name&asc=false'))).toEqual(['C-large.txt', 'b-medium.txt', 'a-small.txt']);
    expect(names(await listTrash(h.admin, 'sort=size&asc=true'))).toEqual(['a-small.txt', 'b-medium.txt', 'C-large.txt']);
    expect(names(await listTrash(h.admin, 'sort=size'))).toEqual(['C-large.txt', 'b-medium.txt', 'a-small.txt']);
  });

  it('pages with offset and limit, with the totals of the whole trash', async () => {
    const first = await listTrash(h.admin, 'sort=name&limit=2');
    expect(names(first)).toEqual(['a-small.txt', 'b-medium.txt']);
    expect(first).toMatchObject({ total: 3, totalSize: 16 });
    expect(names(await listTrash(h.admin, 'sort=name&offset=2&limit=2'))).toEqual(['C-large.txt']);
    expect(names(await listTrash(h.admin, 'sort=name&offset=1'))).toEqual(['b-medium.txt', 'C-large.txt']);
  });

  it('refuses unknown sort fields and malformed numbers with 400, and anonymous callers with 401', async () => {
    for (const query of ['sort=modified', 'asc=yes', 'limit=-1', 'offset=x']) {
      expect((await h.t.request(h.admin, { method: 'GET', url: `/api/trash?${query}` })).statusCode).toBe(400);
    }
    expect((await h.t.request(undefined, { method: 'GET', url: '/api/trash' })).statusCode).toBe(401);
  });

  it('shows everyone, admins included, only their own trash', async () => {
    const bob = await h.user('bob', { scope: '/bob' });
    h.put('bob/mine.txt', 'b');
    await remove(bob, '/mine.txt');
    expect(names(await listTrash(bob))).toEqual(['mine.txt']);
    expect(names(await listTrash(h.admin))).not.toContain('mine.txt');
    const bobs = await itemNamed(bob, 'mine.txt');
    // Another user's item does not exist for the admin.
    expect((await restore(h.admin, bobs.id)).statusCode).toBe(404);
    expect((await h.t.request(h.admin, { method: 'DELETE', url: `/api/trash/${bobs.id}` })).statusCode).toBe(404);
    await h.t.request(h.admin, { method: 'DELETE', url: '/api/trash' });
    expect(names(await listTrash(bob))).toEqual(['mine.txt']);
  });
});

describe('POST /api/trash/{id}/restore', () => {
  it('puts an item back where it was, making missing parents, and announces it', async () => {
    h.put('deep/er/note.md', 'hello');
    await remove(h.admin, '/deep');
    const item = await itemNamed(h.admin, 'deep');
    const stored = await storedPathOf(item.id);
    events = [];
    const response = await restore(h.admin, item.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ path: '/deep' });
    expect(h.read('deep/er/note.md')).toBe('hello');
    expect(fs.existsSync(stored)).toBe(false);
    expect((await listTrash(h.admin)).total).toBe(0);
    expect(events).toEqual([expect.objectContaining({ kind: 'created', virtual: '/deep', isDir: true })]);
    // A second restore of the same item finds nothing.
    expect((await restore(h.admin, item.id)).statusCode).toBe(404);

    h.put('a/b/c.txt', 'c');
    await remove(h.admin, '/a/b/c.txt');
    await remove(h.admin, '/a');
    const file = await itemNamed(h.admin, 'c.txt');
    expect((await restore(h.admin, file.id)).statusCode).toBe(200);
    expect(h.read('a/b/c.txt')).toBe('c');
  });

  it('answers 409 when the place is taken, renames with rename and replaces with override', async () => {
    h.put('notes.txt', 'old');
    await remove(h.admin, '/notes.txt');
    h.put('notes.txt', 'new');
    const item = await itemNamed(h.admin, 'notes.txt');
    const conflict = await restore(h.admin, item.id);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toBe('409 Conflict\n');
    expect((await listTrash(h.admin)).total).toBe(1);

    const renamed = await restore(h.admin, item.id, { rename: true });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ path: '/notes(1).txt' });
    expect(h.read('notes(1).txt')).toBe('old');
    expect(h.read('notes.txt')).toBe('new');

    await remove(h.admin, '/notes(1).txt');
    const again = await itemNamed(h.admin, 'notes(1).txt');
    h.put('notes(1).txt', 'newer');
    const replaced = await restore(h.admin, again.id, { override: true });
    expect(replaced.statusCode).toBe(200);
    expect(h.read('notes(1).txt')).toBe('old');
    // What was replaced went to the trash in its turn.
    const displaced = await itemNamed(h.admin, 'notes(1).txt');
    expect(fs.readFileSync(await storedPathOf(displaced.id), 'utf8')).toBe('newer');
  });

  it('restores into a chosen folder; a missing folder is 404, a file 400', async () => {
    h.put('x.txt', 'x');
    h.mkdir('elsewhere');
    await remove(h.admin, '/x.txt');
    const item = await itemNamed(h.admin, 'x.txt');
    expect((await restore(h.admin, item.id, { destination: '/nowhere' })).statusCode).toBe(404);
    h.put('plain.txt', 'p');
    expect((await restore(h.admin, item.id, { destination: '/plain.txt' })).statusCode).toBe(400);
    const response = await restore(h.admin, item.id, { destination: '/elsewhere/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ path: '/elsewhere/x.txt' });
    expect(h.read('elsewhere/x.txt')).toBe('x');
  });

  it('asks for a folder (400) when the original place left the user scope', async () => {
    const carol = await h.user('carol', { scope: '/carol' });
    h.put('carol/old/file.txt', 'f');
    await remove(carol, '/old/file.txt');
    const item = await itemNamed(carol, 'file.txt');
    await h.t.app.services.db.updateTable('users').set({ scope: '/carol/old/new-home' }).where('username', '=', 'carol').execute();
    const response = await restore(carol, item.id);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('choose a destination');
    expect((await restore(carol, item.id, { destination: '/' })).statusCode).toBe(200);
    expect(h.read('carol/old/new-home/file.txt')).toBe('f');
  });

  it('needs create, modify for override, and passes the rules of the destination', async () => {
    const noCreate = await h.user('nocreate', { scope: '/nc', perm: { create: false, delete: true } });
    h.put('nc/f.txt', 'f');
    await remove(noCreate, '/f.txt');
    expect((await restore(noCreate, (await itemNamed(noCreate, 'f.txt')).id)).statusCode).toBe(403);

    const noModify = await h.user('nomodify', { scope: '/nm', perm: { create: true, delete: true, modify: false } });
    h.put('nm/f.txt', 'f');
    await remove(noModify, '/f.txt');
    h.put('nm/f.txt', 'other');
    const id = (await itemNamed(noModify, 'f.txt')).id;
    expect((await restore(noModify, id, { override: true })).statusCode).toBe(403);
    expect(h.read('nm/f.txt')).toBe('other');

    // Rules on the owner's paths: /locked and anything named /box/hidden.
    const ruled = await h.user('ruled', { scope: '/', perm: { create: true, delete: true }, rules: [deny('/locked'), deny('/box/hidden')] });
    h.mkdir('locked');
    h.put('f.txt', 'f');
    await remove(ruled, '/f.txt');
    const file = await itemNamed(ruled, 'f.txt');
    expect((await restore(ruled, file.id, { destination: '/locked' })).statusCode).toBe(403);
    // A folder holding a name the rules deny at the destination is refused whole.
    h.put('crate/hidden', 's');
    await remove(ruled, '/crate');
    h.mkdir('parent');
    const crate = await itemNamed(ruled, 'crate');
    await h.t.app.services.db.updateTable('trash').set({ name: 'box' }).where('id', '=', crate.id).execute();
    expect((await restore(ruled, crate.id, { destination: '/' })).statusCode).toBe(403);
    expect(h.exists('box')).toBe(false);
    expect((await restore(ruled, crate.id, { destination: '/parent' })).statusCode).toBe(200);
    expect(h.read('parent/box/hidden')).toBe('s');
    expect((await restore(ruled, file.id)).statusCode).toBe(200);
    expect((await listTrash(ruled)).total).toBe(0);
  });

  it('refuses malformed ids and bodies', async () => {
    expect((await restore(h.admin, '..%2F..%2Fetc')).statusCode).toBe(404);
    expect((await restore(h.admin, '0'.repeat(32))).statusCode).toBe(404);
    h.put('y.txt', 'y');
    await remove(h.admin, '/y.txt');
    const item = await itemNamed(h.admin, 'y.txt');
    expect((await restore(h.admin, item.id, { override: 'maybe' })).statusCode).toBe(400);
    expect((await h.t.request(h.admin, { method: 'POST', url: `/api/trash/${item.id}/restore`, payload: '{"destination":', headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
    expect((await listTrash(h.admin)).total).toBe(1);
  });
});

describe('DELETE /api/trash and /api/trash/{id}', () => {
  it('deletes one item for good, then empties the rest (both need delete)', async () => {
    h.put('one.txt', '1');
    h.put('two/three.txt', '3');
    h.put('four.txt', '4');
    await remove(h.admin, '/one.txt');
    await remove(h.admin, '/two');
    await remove(h.admin, '/four.txt');
    const one = await itemNamed(h.admin, 'one.txt');
    const stored = await storedPathOf(one.id);
    const purged = await h.t.request(h.admin, { method: 'DELETE', url: `/api/trash/${one.id}` });
    expect(purged.statusCode).toBe(204);
    expect(fs.existsSync(stored)).toBe(false);
    expect((await h.t.request(h.admin, { method: 'DELETE', url: `/api/trash/${one.id}` })).statusCode).toBe(404);
    expect(names(await listTrash(h.admin, 'sort=name'))).toEqual(['four.txt', 'two']);

    const keeper = await h.user('keeper', { scope: '/k', perm: { create: true, delete: false } });
    expect((await h.t.request(keeper, { method: 'DELETE', url: '/api/trash' })).statusCode).toBe(403);
    expect((await h.t.request(keeper, { method: 'DELETE', url: `/api/trash/${one.id}` })).statusCode).toBe(403);

    expect((await h.t.request(h.admin, { method: 'DELETE', url: '/api/trash' })).statusCode).toBe(204);
    expect((await listTrash(h.admin)).total).toBe(0);
    expect(fs.readdirSync(path.join(h.t.config.cacheDir, 'trash', '1'))).toEqual([]);
  });
});

describe('the trash sweep', () => {
  it('removes items past the retention time', async () => {
    await setTrash({ retentionDays: 2 });
    h.put('old.txt', 'o');
    await remove(h.admin, '/old.txt');
    h.put('new.txt', 'n');
    await remove(h.admin, '/new.txt');
    const old = await itemNamed(h.admin, 'old.txt');
    const stored = await storedPathOf(old.id);
    await h.t.app.services.db.updateTable('trash').set({ deleted_at: Date.now() - 3 * 24 * 3600_000 }).where('id', '=', old.id).execute();
    await h.t.app.services.trashSweeper.sweep();
    expect(names(await listTrash(h.admin))).toEqual(['new.txt']);
    expect(fs.existsSync(stored)).toBe(false);
    // 0 days: kept until removed by hand.
    await setTrash({ retentionDays: 0 });
    await h.t.app.services.trashSweeper.sweep(Date.now() + 3650 * 24 * 3600_000);
    expect(names(await listTrash(h.admin))).toEqual(['new.txt']);
  });

  it('keeps each trash under the size limit, oldest first', async () => {
    await setTrash({ maxSize: 10 });
    for (const name of ['first', 'second', 'third']) {
      h.put(`${name}.bin`, '123456');
      await remove(h.admin, `/${name}.bin`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Each delete made room by dropping the oldest: 6 + 6 would pass 10.
    expect(names(await listTrash(h.admin))).toEqual(['third.bin']);
    await setTrash({ maxSize: 0 });
    h.put('big.bin', '1234567890123');
    await remove(h.admin, '/big.bin');
    expect((await listTrash(h.admin)).total).toBe(2);
    // Lowering the limit later takes effect with the sweep the change starts.
    await setTrash({ maxSize: 13 });
    await h.t.app.services.trashSweeper.sweep();
    expect(names(await listTrash(h.admin))).toEqual(['big.bin']);
  });

  it('drops the trash of a user who was deleted', async () => {
    const dave = await h.user('dave', { scope: '/dave' });
    h.put('dave/d.txt', 'd');
    await remove(dave, '/d.txt');
    const row = await h.t.app.services.db.selectFrom('trash').select(['stored_path', 'user_id']).executeTakeFirstOrThrow();
    expect((await h.t.request(h.admin, { method: 'DELETE', url: `/api/users/${row.user_id}`, payload: { current_password: 'admin-test-password-1' } })).statusCode).toBe(200);
    await h.t.app.services.trashSweeper.sweep();
    expect(fs.existsSync(row.stored_path)).toBe(false);
    expect(await h.t.app.services.db.selectFrom('trash').selectAll().execute()).toEqual([]);
  });
});

describe('trash settings', () => {
  it('are part of the global settings; a client that leaves them out keeps them', async () => {
    const got = (await h.t.request(h.admin, { method: 'GET', url: '/api/settings' })).json() as { trash: TrashSettings };
    expect(got.trash).toEqual({ enabled: true, retentionDays: 30, maxSize: 0 });
    const { trash: _trash, ...filebrowserShape } = got as Record<string, unknown>;
    const changed = { ...got, trash: { enabled: false, retentionDays: 7, maxSize: 1024 } };
    expect((await h.t.request(h.admin, { method: 'PUT', url: '/api/settings', payload: changed })).statusCode).toBe(200);
    expect((await h.t.request(h.admin, { method: 'PUT', url: '/api/settings', payload: filebrowserShape })).statusCode).toBe(200);
    expect(h.t.app.services.settings.get().trash).toEqual({ enabled: false, retentionDays: 7, maxSize: 1024 });
    for (const trash of [{ enabled: true, retentionDays: -1, maxSize: 0 }, { enabled: true, retentionDays: 1, maxSize: 0.5 }, { enabled: 'yes', retentionDays: 1, maxSize: 0 }]) {
      expect((await h.t.request(h.admin, { method: 'PUT', url: '/api/settings', payload: { ...got, trash } })).statusCode).toBe(400);
    }
    expect(h.t.app.services.settings.get().trash).toEqual({ enabled: false, retentionDays: 7, maxSize: 1024 });
  });
});
