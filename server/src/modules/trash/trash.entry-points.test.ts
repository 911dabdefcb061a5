import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrashList } from '@burrow/protocol';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { createFilesHarness, type FilesHarness } from '../files/files.test-support.js';
import { createDavHarness, passwordOf, type DavHarness } from '../webdav/webdav.test-support.js';
import { eventually } from '../search/search.test-support.js';
import { FilesystemTrashName } from './trash-bin.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function trashOf(t: TestApp, token: string): Promise<TrashList> {
  const response = await t.request(token, { method: 'GET', url: '/api/trash' });
  expect(response.statusCode).toBe(200);
  return response.json() as TrashList;
}

async function storedPath(t: TestApp, id: string): Promise<string> {
  return (await t.app.services.db.selectFrom('trash').select('stored_path').where('id', '=', id).executeTakeFirstOrThrow()).stored_path;
}

/** A filesystem other than the one temporary folders live on, when the machine has one. */
function otherFilesystem(): string | undefined {
  const candidate = '/dev/shm';
  try {
    return fs.statSync(candidate).dev !== fs.statSync(os.tmpdir()).dev ? candidate : undefined;
  } catch {
    return undefined;
  }
}
const elsewhere = otherFilesystem();

describe('entry points that delete', () => {
  it('WebDAV DELETE lands in the trash', async () => {
    const h: DavHarness = await createDavHarness();
    cleanups.push(() => h.close());
    await h.user('dave', { scope: '/dave' });
    fs.mkdirSync(path.join(h.t.root, 'dave', 'docs'), { recursive: true });
    fs.writeFileSync(path.join(h.t.root, 'dave', 'docs', 'plan.txt'), 'plan');
    expect((await h.dav('dave', 'DELETE', '/docs/plan.txt')).statusCode).toBe(204);
    expect(fs.existsSync(path.join(h.t.root, 'dave', 'docs', 'plan.txt'))).toBe(false);
    const token = await h.t.login('dave', passwordOf('dave'));
    const list = await trashOf(h.t, token);
    expect(list.items).toEqual([expect.objectContaining({ name: 'plan.txt', path: '/docs/plan.txt', deletedBy: 'dave', size: 4 })]);
  });

  it('runs the delete hooks around a move to the trash, and a refusing hook keeps the item in place', async () => {
    const h: FilesHarness = await createFilesHarness({ enableExec: true });
    cleanups.push(() => h.close());
    const settings = h.t.app.services.settings;
    // A server running as root starts hooks as the scope's owner, who must reach the scope.
    if (process.getuid?.() === 0) fs.chownSync(h.t.root, 4242, 4242);
    fs.chmodSync(path.dirname(h.t.root), 0o711);
    h.put('keep.txt', 'k');
    await settings.save({ ...settings.get(), commands: { before_delete: ['/nonexistent/hook-binary'] } });
    expect((await h.api(h.admin, 'DELETE', '/keep.txt')).statusCode).toBe(500);
    expect(h.read('keep.txt')).toBe('k');
    expect((await trashOf(h.t, h.admin)).total).toBe(0);
    // A passing hook lets the move happen; a failing after_ hook keeps it done.
    await settings.save({ ...settings.get(), commands: { before_delete: [`node -e "process.exit(0)"`], after_delete: [`node -e "process.exit(2)"`] } });
    expect((await h.api(h.admin, 'DELETE', '/keep.txt')).statusCode).toBe(204);
    expect(h.exists('keep.txt')).toBe(false);
    expect((await trashOf(h.t, h.admin)).items.map((item) => item.name)).toEqual(['keep.txt']);
  });

  it('the search index forgets a trashed item and finds it again once restored', async () => {
    const h: FilesHarness = await createFilesHarness();
    cleanups.push(() => h.close());
    const search = h.t.app.services.search;
    h.put('reports/quarterly-figures.ods', 'q');
    await search.rescan();
    const found = async () => {
      const response = await h.t.request(h.admin, { method: 'GET', url: '/api/search/?query=quarterly' });
      return response.body.includes('quarterly-figures.ods');
    };
    expect(await found()).toBe(true);
    expect((await h.api(h.admin, 'DELETE', '/reports')).statusCode).toBe(204);
    await eventually(async () => !(await found()), 5000, 'the index to forget the trashed folder');
    const [item] = (await trashOf(h.t, h.admin)).items;
    expect((await h.t.request(h.admin, { method: 'POST', url: `/api/trash/${item!.id}/restore` })).statusCode).toBe(200);
    await eventually(found, 5000, 'the index to find the restored folder');
  });
});

describe.skipIf(!elsewhere)('a cache folder on another filesystem than the item (EXDEV)', () => {
  it('keeps the item at the top of its own filesystem, outside the root, by rename', async () => {
    const base = fs.mkdtempSync(path.join(elsewhere!, 'burrow-trash-test-'));
    const root = path.join(base, 'root');
    fs.mkdirSync(root);
    const t = await createTestApp({ root });
    cleanups.push(async () => {
      await t.close();
      fs.rmSync(base, { recursive: true, force: true });
    });
    const admin = await t.login();
    fs.mkdirSync(path.join(root, 'big'));
    fs.writeFileSync(path.join(root, 'big', 'data.bin'), 'eight b.');
    const inode = fs.statSync(path.join(root, 'big', 'data.bin')).ino;
    expect((await t.request(admin, { method: 'DELETE', url: '/api/resources/big' })).statusCode).toBe(204);
    const [item] = (await trashOf(t, admin)).items;
    const stored = await storedPath(t, item!.id);
    cleanups.push(() => fs.rmSync(stored, { recursive: true, force: true }));
    expect(path.dirname(stored)).toBe(path.join(elsewhere!, FilesystemTrashName, '1'));
    // Renamed, not copied: the same file.
    expect(fs.statSync(path.join(stored, 'data.bin')).ino).toBe(inode);
    expect(item!.size).toBe(8);

    expect((await t.request(admin, { method: 'POST', url: `/api/trash/${item!.id}/restore` })).statusCode).toBe(200);
    expect(fs.readFileSync(path.join(root, 'big', 'data.bin'), 'utf8')).toBe('eight b.');
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('copies into the cache trash and then removes when the top of the filesystem is inside the root', async () => {
    // The served root is the top of its filesystem: a trash folder there would be in every scope.
    const t = await createTestApp({ root: elsewhere! });
    const folder = fs.mkdtempSync(path.join(elsewhere!, 'burrow-trash-copy-'));
    cleanups.push(async () => {
      await t.close();
      fs.rmSync(folder, { recursive: true, force: true });
    });
    const admin = await t.login();
    fs.writeFileSync(path.join(folder, 'note.txt'), 'copied');
    const virtual = `/${path.basename(folder)}/note.txt`;
    expect((await t.request(admin, { method: 'DELETE', url: `/api/resources${virtual}` })).statusCode).toBe(204);
    expect(fs.existsSync(path.join(folder, 'note.txt'))).toBe(false);
    const item = (await trashOf(t, admin)).items.find((entry) => entry.path === virtual)!;
    const stored = await storedPath(t, item.id);
    expect(stored.startsWith(path.join(fs.realpathSync(t.config.cacheDir), 'trash', '1') + path.sep)).toBe(true);
    expect(fs.readFileSync(stored, 'utf8')).toBe('copied');
    // And back across, by copy again.
    expect((await t.request(admin, { method: 'POST', url: `/api/trash/${item.id}/restore` })).statusCode).toBe(200);
    expect(fs.readFileSync(path.join(folder, 'note.txt'), 'utf8')).toBe('copied');
    expect(fs.existsSync(stored)).toBe(false);
  });
});
