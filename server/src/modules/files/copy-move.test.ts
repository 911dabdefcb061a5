import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFilesHarness, encodePath, namesIn, type FilesHarness } from './files.test-support.js';
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
  vi.restoreAllMocks();
  await h.close();
});

const twice = (virtual: string) => encodeURIComponent(encodePath(virtual));

/** Makes renames of `source` fail as if it lived on another filesystem. */
function crossDevice(source: string) {
  const rename = fsp.rename;
  vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
    if (String(from) === source) throw Object.assign(new Error('cross-device link'), { code: 'EXDEV' });
    return rename(from, to);
  });
}

describe('move across filesystems', () => {
  it('falls back to copy and delete', async () => {
    h.put('tree/a.txt', 'a');
    h.put('tree/sub/b.txt', 'b');
    fs.symlinkSync('a.txt', h.real('tree/link'));
    crossDevice(fs.realpathSync(h.real('tree')));
    const response = await h.api(h.admin, 'PATCH', '/tree', { query: `action=rename&destination=${twice('/elsewhere/tree')}` });
    expect(response.statusCode).toBe(200);
    expect(h.exists('tree')).toBe(false);
    expect(namesIn(h.real('elsewhere/tree'))).toEqual(['a.txt', 'link', 'sub']);
    expect(h.read('elsewhere/tree/sub/b.txt')).toBe('b');
    expect(fs.readlinkSync(h.real('elsewhere/tree/link'))).toBe('a.txt');
  });

  it('keeps the source when something could not be carried over', async () => {
    h.put('tree/a.txt', 'a');
    execFileSync('mkfifo', [h.real('tree/pipe')]);
    crossDevice(fs.realpathSync(h.real('tree')));
    const response = await h.api(h.admin, 'PATCH', '/tree', { query: `action=rename&destination=${twice('/moved')}` });
    expect(response.statusCode).toBe(500);
    expect(namesIn(h.real('tree'))).toEqual(['a.txt', 'pipe']);
  });
});

describe('copy', () => {
  it('refuses a special file at the top with 400 and skips them inside folders', async () => {
    h.mkdir('box');
    execFileSync('mkfifo', [h.real('box/pipe')]);
    h.put('box/file.txt', 'f');
    expect((await h.api(h.admin, 'PATCH', '/box/pipe', { query: `action=copy&destination=${twice('/pipe2')}` })).statusCode).toBe(400);
    expect((await h.api(h.admin, 'PATCH', '/box', { query: `action=copy&destination=${twice('/box2')}` })).statusCode).toBe(200);
    expect(namesIn(h.real('box2'))).toEqual(['file.txt']);
  });

  it('copies a link at the top as the content it points to (inside the scope)', async () => {
    h.put('data/real.txt', 'payload');
    fs.symlinkSync('data/real.txt', h.real('alias'));
    expect((await h.api(h.admin, 'PATCH', '/alias', { query: `action=copy&destination=${twice('/copied.txt')}` })).statusCode).toBe(200);
    expect(fs.lstatSync(h.real('copied.txt')).isFile()).toBe(true);
    expect(h.read('copied.txt')).toBe('payload');
  });

  it('moves a link as a link', async () => {
    h.put('data/real.txt', 'payload');
    fs.symlinkSync('data/real.txt', h.real('alias'));
    expect((await h.api(h.admin, 'PATCH', '/alias', { query: `action=rename&destination=${twice('/alias2')}` })).statusCode).toBe(200);
    expect(fs.lstatSync(h.real('alias2')).isSymbolicLink()).toBe(true);
    expect(h.read('data/real.txt')).toBe('payload');
  });

  it('copying a file onto itself with override changes nothing', async () => {
    h.put('self.txt', 'same');
    expect((await h.api(h.admin, 'PATCH', '/self.txt', { query: `action=copy&destination=${twice('/self.txt')}&override=true` })).statusCode).toBe(200);
    expect(h.read('self.txt')).toBe('same');
    expect(namesIn(h.t.root)).toEqual(['self.txt']);
  });
});

describe('PATCH /api/resources (copy and rename)', () => {
  const patch = (source: string, query: string) => h.api(h.admin, 'PATCH', source, { query });
  const dest = (virtual: string) => encodeURIComponent(virtual.split('/').map(encodeURIComponent).join('/'));

  it('renames with the destination decoded twice', async () => {
    h.put('from.txt', 'x');
    const response = await patch('/from.txt', `action=rename&destination=${dest('/to dir/new name+%.txt')}&override=false&rename=false`);
    expect(response.statusCode).toBe(200);
    expect(h.read('to dir/new name+%.txt')).toBe('x');
    expect(h.exists('from.txt')).toBe(false);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'created', virtual: '/to dir', isDir: true }),
      expect.objectContaining({ kind: 'moved', fromVirtual: '/from.txt', toVirtual: '/to dir/new name+%.txt', isDir: false }),
    ]);
  });

  it('copies files and folders recursively, merging into existing folders', async () => {
    h.put('src/a.txt', 'a');
    h.put('src/sub/b.txt', 'b');
    h.put('dst/keep.txt', 'keep');
    h.put('dst/a.txt', 'old a');
    const response = await patch('/src', `action=copy&destination=${dest('/dst')}&override=true`);
    expect(response.statusCode).toBe(200);
    expect(h.read('dst/a.txt')).toBe('a');
    expect(h.read('dst/sub/b.txt')).toBe('b');
    expect(h.read('dst/keep.txt')).toBe('keep');
    expect(h.read('src/a.txt')).toBe('a');
    expect(events).toEqual([expect.objectContaining({ kind: 'copied', fromVirtual: '/src', toVirtual: '/dst', isDir: true })]);
    expect(namesIn(h.real('dst'))).toEqual(['a.txt', 'keep.txt', 'sub']);
  });

  it('answers 409 when the destination exists, and rename=true picks base(N)ext', async () => {
    h.put('a.tar.gz', 'archive');
    h.put('b/a.tar.gz', 'taken');
    h.put('b/a.tar(1).gz', 'taken too');
    h.mkdir('dir');
    h.mkdir('b/dir');
    expect((await patch('/a.tar.gz', `action=copy&destination=${dest('/b/a.tar.gz')}`)).statusCode).toBe(409);
    expect((await patch('/a.tar.gz', `action=copy&destination=${dest('/b/a.tar.gz')}&rename=true`)).statusCode).toBe(200);
    expect(h.read('b/a.tar(2).gz')).toBe('archive');
    expect((await patch('/dir', `action=rename&destination=${dest('/b/dir')}&rename=true`)).statusCode).toBe(200);
    expect(fs.statSync(h.real('b/dir(1)')).isDirectory()).toBe(true);
    // Pasting into the same folder renames instead of touching the source.
    expect((await patch('/a.tar.gz', `action=copy&destination=${dest('/a.tar.gz')}&rename=true`)).statusCode).toBe(200);
    expect(h.read('a.tar(1).gz')).toBe('archive');
    h.put('.env', 'secret');
    expect((await patch('/.env', `action=copy&destination=${dest('/.env')}&rename=true`)).statusCode).toBe(200);
    expect(h.read('.env(1)')).toBe('secret');
  });

  it('answers 400 "source is parent" for a destination inside the source', async () => {
    h.put('p/child/x.txt', 'x');
    const response = await patch('/p', `action=copy&destination=${dest('/p/child/p')}`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe('400 Bad Request (source is parent)\n');
    // …also when a link makes an unrelated-looking destination land inside the source.
    fs.symlinkSync(h.real('p'), h.real('alias'));
    expect((await patch('/p', `action=copy&destination=${dest('/alias/inside')}`)).statusCode).toBe(400);
    expect(h.exists('p/inside')).toBe(false);
  });

  it('answers 403 for the root on either side, 400 for an unknown action, 404 for a missing source', async () => {
    h.put('x.txt', 'x');
    expect((await patch('/', `action=copy&destination=${dest('/y')}`)).statusCode).toBe(403);
    expect((await patch('/x.txt', `action=copy&destination=${dest('/')}`)).statusCode).toBe(403);
    expect((await patch('/x.txt', `action=copy&destination=`)).statusCode).toBe(403);
    expect((await patch('/x.txt', `action=delete&destination=${dest('/y.txt')}`)).statusCode).toBe(400);
    expect((await patch('/nothing', `action=copy&destination=${dest('/y.txt')}`)).statusCode).toBe(404);
    expect(h.exists('y.txt')).toBe(false);
  });

  it('renames a file onto itself (a case-only change) without a conflict', async () => {
    h.put('Same.txt', 'x');
    expect((await patch('/Same.txt', `action=rename&destination=${dest('/Same.txt')}`)).statusCode).toBe(200);
    expect(h.read('Same.txt')).toBe('x');
  });

  it('overrides a file by moving, and merges folders when moving onto a non-empty folder', async () => {
    h.put('m1.txt', 'new');
    h.put('m2.txt', 'old');
    expect((await patch('/m1.txt', `action=rename&destination=${dest('/m2.txt')}&override=true`)).statusCode).toBe(200);
    expect(h.read('m2.txt')).toBe('new');
    h.put('from/a.txt', 'a');
    h.put('to/from/b.txt', 'b');
    expect((await patch('/from', `action=rename&destination=${dest('/to/from')}&override=true`)).statusCode).toBe(200);
    expect(namesIn(h.real('to/from'))).toEqual(['a.txt', 'b.txt']);
    expect(h.exists('from')).toBe(false);
  });

  it('answers 409 when moving a file over a folder', async () => {
    h.put('f.txt', 'x');
    h.mkdir('d');
    expect((await patch('/f.txt', `action=rename&destination=${dest('/d')}&override=true`)).statusCode).toBe(409);
    expect(h.read('f.txt')).toBe('x');
  });
});
