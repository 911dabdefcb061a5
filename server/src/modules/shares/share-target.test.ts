import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShareHarness, type ShareHarness } from './shares.test-support.js';
import { SETTLE_MS } from './share-access.js';

let h: ShareHarness;

beforeEach(async () => {
  h = await createShareHarness();
  h.put('report.txt', 'original report');
  h.put('docs/readme.txt', 'read me');
});
afterEach(async () => {
  await h.close();
});

const real = (relative: string) => path.join(h.t.root, relative);
const status = async (url: string) => (await h.visit(url)).statusCode;
/** A mismatch retires a link for good only once the new item has held the path for a moment. */
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 100));
const targetRows = () => h.t.app.services.db.selectFrom('shares').select(['hash', 'target_dev', 'target_ino', 'target_birth']).execute();

describe('a link stands for the item it was made for', () => {
  it('stores the target’s device, inode and birth time when it is made', async () => {
    const link = await h.share(h.admin, '/report.txt');
    const folder = await h.share(h.admin, '/docs/');
    const stats = [fs.statSync(real('report.txt'), { bigint: true }), fs.statSync(real('docs'), { bigint: true })];
    const rows = await targetRows();
    for (const [index, hash] of [link.hash, folder.hash].entries()) {
      const row = rows.find((candidate) => candidate.hash === hash)!;
      expect(row.target_dev).toBe(stats[index]!.dev.toString());
      expect(row.target_ino).toBe(stats[index]!.ino.toString());
      expect(row.target_birth).toBe(stats[index]!.birthtimeNs > 0n ? stats[index]!.birthtimeNs.toString() : null);
    }
  });

  it('retires a file link whose file was deleted and written again outside Burrow, for good', async () => {
    const link = await h.share(h.admin, '/report.txt');
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('original report');
    fs.rmSync(real('report.txt'));
    fs.writeFileSync(real('report.txt'), 'someone else’s file');
    expect(await status(`/api/public/dl/${link.hash}`)).toBe(404);
    // Refused at once, and kept while the new file is seconds old: a save through Burrow
    // records its new identity a moment after the rename.
    expect(await h.rows()).toHaveLength(1);
    await settle();
    expect(await status(`/api/public/dl/${link.hash}`)).toBe(404);
    expect(await h.rows()).toEqual([]);
    expect(await status(`/api/public/share/${link.hash}`)).toBe(404);
  });

  it('retires a file link whose file was replaced by a rename outside Burrow', async () => {
    const link = await h.share(h.admin, '/report.txt');
    h.put('incoming.tmp', 'swapped in');
    fs.renameSync(real('incoming.tmp'), real('report.txt'));
    for (const url of [`/api/public/share/${link.hash}`, `/api/public/dl/${link.hash}`, `/api/public/dl/${link.hash}?inline=true`]) {
      const response = await h.visit(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('swapped in');
    }
  });

  it('retires a folder link whose folder was removed and made again outside Burrow', async () => {
    const link = await h.share(h.admin, '/docs/');
    fs.rmSync(real('docs'), { recursive: true });
    h.put('docs/readme.txt', 'new content');
    await settle();
    for (const url of [`/api/public/share/${link.hash}`, `/api/public/dl/${link.hash}/readme.txt`, `/api/public/dl/${link.hash}?algo=tar`]) {
      expect(await status(url), url).toBe(404);
    }
    expect(await h.rows()).toEqual([]);
  });

  it('retires a link made through a symbolic link once the link leads somewhere else', async () => {
    h.put('a.txt', 'first');
    h.put('b.txt', 'second');
    fs.symlinkSync('a.txt', real('current.txt'));
    const link = await h.share(h.admin, '/current.txt');
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('first');
    fs.rmSync(real('current.txt'));
    fs.symlinkSync('b.txt', real('current.txt'));
    expect(await status(`/api/public/dl/${link.hash}`)).toBe(404);
  });

  it('keeps a link whose file is edited in place, and one whose file is edited or overwritten through Burrow', async () => {
    const link = await h.share(h.admin, '/report.txt');
    fs.writeFileSync(real('report.txt'), 'edited in place');
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('edited in place');
    // Saves and uploads through Burrow replace the file atomically (a new inode).
    const before = fs.statSync(real('report.txt')).ino;
    expect((await h.t.request(h.admin, { method: 'PUT', url: '/api/resources/report.txt', payload: 'saved through Burrow' })).statusCode).toBe(200);
    expect(fs.statSync(real('report.txt')).ino).not.toBe(before);
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('saved through Burrow');
    expect((await h.t.request(h.admin, { method: 'POST', url: '/api/resources/report.txt?override=true', payload: 'uploaded over it' })).statusCode).toBe(200);
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('uploaded over it');
    h.put('newer.txt', 'copied over it');
    const copy = await h.t.request(h.admin, { method: 'PATCH', url: `/api/resources/newer.txt?action=copy&override=true&destination=${encodeURIComponent('/report.txt')}` });
    expect(copy.statusCode).toBe(200);
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('copied over it');
    // A rename through Burrow keeps the inode of what it moves; links inside a moved folder's
    // new place keep working, the folder's own links follow the existing move rules.
    expect((await h.rows()).map((row) => row.hash)).toEqual([link.hash]);
  });

  it('keeps links made before identities were stored, recording the target on first use', async () => {
    const link = await h.share(h.admin, '/report.txt');
    await h.t.app.services.db.updateTable('shares').set({ target_dev: null, target_ino: null, target_birth: null }).execute();
    fs.rmSync(real('report.txt'));
    fs.writeFileSync(real('report.txt'), 'made before the upgrade');
    // Nothing to compare with yet: the link serves what is there and remembers it.
    expect((await h.visit(`/api/public/dl/${link.hash}`)).body).toBe('made before the upgrade');
    const row = (await targetRows())[0]!;
    expect(row.target_ino).toBe(fs.statSync(real('report.txt'), { bigint: true }).ino.toString());
    // From then on it is held to that file.
    fs.rmSync(real('report.txt'));
    fs.writeFileSync(real('report.txt'), 'replaced after the upgrade');
    expect(await status(`/api/public/dl/${link.hash}`)).toBe(404);
  });

  it('answers 404 while the target is missing, and serves it again if the same item comes back', async () => {
    const link = await h.share(h.admin, '/docs/');
    fs.renameSync(real('docs'), real('docs-away'));
    expect(await status(`/api/public/share/${link.hash}`)).toBe(404);
    fs.renameSync(real('docs-away'), real('docs'));
    expect(await status(`/api/public/share/${link.hash}`)).toBe(200);
  });
});

describe('a save through Burrow racing a visit', () => {
  it('keeps the link when a visitor comes between the save’s rename and its recorded identity', async () => {
    const link = await h.share(h.admin, '/report.txt');
    // What a save does on disk: a new file renamed into place; its file event follows.
    h.put('report.txt.new', 'edited report');
    fs.renameSync(real('report.txt.new'), real('report.txt'));
    expect(await status(`/api/public/dl/${link.hash}`)).toBe(404);
    await h.t.app.services.fileEvents.emit({ kind: 'modified', user: (await h.t.app.services.usersRepository.findByUsername('admin'))!, real: real('report.txt'), virtual: '/report.txt' });
    const response = await h.visit(`/api/public/dl/${link.hash}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('edited report');
  });
});
