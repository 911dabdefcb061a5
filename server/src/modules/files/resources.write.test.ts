import fs from 'node:fs';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesHarness, namesIn, type FilesHarness } from './files.test-support.js';
import type { FileEvent } from '../../storage/file-events.js';
import { removeSharesUnder } from './delete.js';

/** Waits (bounded) until a folder holds exactly `expected`, then returns what it holds. */
async function settledNames(folder: string, expected: string[]): Promise<string[]> {
  const deadline = Date.now() + 3000;
  let names = namesIn(folder);
  while (JSON.stringify(names) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    names = namesIn(folder);
  }
  return names;
}

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
  await h.close();
});

const etagOf = (file: string) => {
  const stat = fs.statSync(file, { bigint: true });
  return `"${stat.mtimeNs.toString(16)}${stat.size.toString(16)}"`;
};

describe('POST /api/resources', () => {
  it('creates a file from the raw body with fileMode, an ETag and a created event', async () => {
    const response = await h.api(h.admin, 'POST', '/new/deep/file.txt', { query: 'override=false', payload: 'content!', headers: { 'content-type': 'text/plain' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('200 OK\n');
    expect(h.read('new/deep/file.txt')).toBe('content!');
    expect(response.headers.etag).toBe(etagOf(h.real('new/deep/file.txt')));
    expect(fs.statSync(h.real('new/deep/file.txt')).mode & 0o777).toBe(0o640 & ~process.umask());
    expect(fs.statSync(h.real('new/deep')).mode & 0o777).toBe(0o750 & ~process.umask());
    // Folders made on the way are announced too, outermost first.
    expect(events).toEqual([
      expect.objectContaining({ kind: 'created', virtual: '/new', isDir: true }),
      expect.objectContaining({ kind: 'created', virtual: '/new/deep', isDir: true }),
      expect.objectContaining({ kind: 'created', virtual: '/new/deep/file.txt', isDir: false }),
    ]);
    expect(namesIn(h.real('new/deep'))).toEqual(['file.txt']);
  });

  it('does not parse the body as JSON or multipart, and has no body size limit', async () => {
    const json = '{"not": "parsed"';
    expect((await h.api(h.admin, 'POST', '/a.json', { payload: json, headers: { 'content-type': 'application/json' } })).statusCode).toBe(200);
    expect(h.read('a.json')).toBe(json);
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const response = await h.api(h.admin, 'POST', '/big.bin', { payload: big, headers: { 'content-type': 'application/octet-stream' } });
    expect(response.statusCode).toBe(200);
    expect(fs.readFileSync(h.real('big.bin')).equals(big)).toBe(true);
    expect((await h.api(h.admin, 'POST', '/empty.txt')).statusCode).toBe(200);
    expect(h.read('empty.txt')).toBe('');
  });

  it('answers 409 for an existing file without override, replaces it with override', async () => {
    h.put('f.txt', 'old');
    fs.chmodSync(h.real('f.txt'), 0o604);
    const refused = await h.api(h.admin, 'POST', '/f.txt', { query: 'override=false', payload: 'new' });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toBe('409 Conflict\n');
    expect(h.read('f.txt')).toBe('old');
    const replaced = await h.api(h.admin, 'POST', '/f.txt', { query: 'override=true', payload: 'new' });
    expect(replaced.statusCode).toBe(200);
    expect(h.read('f.txt')).toBe('new');
    // The replaced file keeps its permission bits.
    expect(fs.statSync(h.real('f.txt')).mode & 0o777).toBe(0o604);
    expect(events.map((event) => event.kind)).toEqual(['modified']);
  });

  it('creates folders for a trailing slash (mkdir -p), 200 even when they exist', async () => {
    const first = await h.api(h.admin, 'POST', '/one/two/', {});
    expect(first.statusCode).toBe(200);
    expect(fs.statSync(h.real('one/two')).isDirectory()).toBe(true);
    expect((await h.api(h.admin, 'POST', '/one/two/', {})).statusCode).toBe(200);
    expect(events.map((event) => event.kind === 'created' && event.virtual)).toEqual(['/one', '/one/two']);
    h.put('plain', 'x');
    expect((await h.api(h.admin, 'POST', '/plain/', {})).statusCode).toBe(409);
  });

  it('answers 409 when a file would replace a folder, 403 for the root', async () => {
    h.mkdir('dir');
    expect((await h.api(h.admin, 'POST', '/dir', { query: 'override=true', payload: 'x' })).statusCode).toBe(409);
    expect((await h.api(h.admin, 'POST', '/', { payload: 'x' })).statusCode).toBe(403);
  });

  it('leaves the old file intact and no staging file when the body fails midway', async () => {
    h.put('keep/target.txt', 'original');
    let sent = 0;
    const failing = new Readable({
      read() {
        sent++;
        if (sent < 4) this.push(Buffer.alloc(64 * 1024, 1));
        else this.destroy(new Error('client went away'));
      },
    });
    const response = await h
      .api(h.admin, 'POST', '/keep/target.txt', { query: 'override=true', payload: failing, headers: { 'content-type': 'application/octet-stream' } })
      .catch((error: Error) => error);
    expect(response).toBeInstanceOf(Error);
    expect(await settledNames(h.real('keep'), ['target.txt'])).toEqual(['target.txt']);
    expect(h.read('keep/target.txt')).toBe('original');
    expect(events).toEqual([]);
    // A new file is not created at all.
    const again = new Readable({
      read() {
        this.destroy(new Error('gone'));
      },
    });
    await h.api(h.admin, 'POST', '/keep/new.txt', { payload: again, headers: { 'content-type': 'application/octet-stream' } }).catch(() => undefined);
    expect(await settledNames(h.real('keep'), ['target.txt'])).toEqual(['target.txt']);
  });

  it('refuses with 507 when the declared length exceeds the free space, writing nothing', async () => {
    const stats = fs.statfsSync(h.t.root);
    const tooBig = String(stats.bavail * stats.bsize + 1024 * 1024);
    const response = await h.api(h.admin, 'POST', '/huge.bin', { payload: 'x', headers: { 'content-length': tooBig, 'content-type': 'application/octet-stream' } });
    expect(response.statusCode).toBe(507);
    expect(h.exists('huge.bin')).toBe(false);
    expect(namesIn(h.t.root)).toEqual([]);
  });
});

describe('PUT /api/resources', () => {
  it('replaces the content atomically and answers 200 with an ETag', async () => {
    h.put('doc.txt', 'v1');
    const inode = fs.statSync(h.real('doc.txt')).ino;
    const response = await h.api(h.admin, 'PUT', '/doc.txt', { payload: 'version two' });
    expect(response.statusCode).toBe(200);
    expect(h.read('doc.txt')).toBe('version two');
    expect(response.headers.etag).toBe(etagOf(h.real('doc.txt')));
    // Written beside and renamed over: a new inode, never a half-written original.
    expect(fs.statSync(h.real('doc.txt')).ino).not.toBe(inode);
    expect(events).toEqual([expect.objectContaining({ kind: 'modified', virtual: '/doc.txt' })]);
  });

  it('answers 405 for a trailing slash or a folder, 404 for a missing file', async () => {
    h.mkdir('folder');
    h.put('doc.txt', 'v1');
    expect((await h.api(h.admin, 'PUT', '/doc.txt/', { payload: 'x' })).statusCode).toBe(405);
    expect((await h.api(h.admin, 'PUT', '/folder', { payload: 'x' })).statusCode).toBe(405);
    expect((await h.api(h.admin, 'PUT', '/missing.txt', { payload: 'x' })).statusCode).toBe(404);
    expect(h.exists('missing.txt')).toBe(false);
    expect(h.read('doc.txt')).toBe('v1');
  });

  it('keeps the old content when the body fails', async () => {
    h.put('doc.txt', 'stable');
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('reset'));
      },
    });
    await h.api(h.admin, 'PUT', '/doc.txt', { payload: failing, headers: { 'content-type': 'text/plain' } }).catch(() => undefined);
    expect(await settledNames(h.t.root, ['doc.txt'])).toEqual(['doc.txt']);
    expect(h.read('doc.txt')).toBe('stable');
  });
});

describe('DELETE /api/resources', () => {
  it('removes files and folders recursively with 204 and a deleted event', async () => {
    h.put('tree/a/b/c.txt', 'c');
    h.put('file.txt', 'f');
    const file = await h.api(h.admin, 'DELETE', '/file.txt');
    expect(file.statusCode).toBe(204);
    expect(file.body).toBe('');
    expect((await h.api(h.admin, 'DELETE', '/tree/')).statusCode).toBe(204);
    expect(namesIn(h.t.root)).toEqual([]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'deleted', virtual: '/file.txt', isDir: false }),
      expect.objectContaining({ kind: 'deleted', virtual: '/tree', isDir: true }),
    ]);
  });

  it('answers 403 for the root and 404 for a missing path', async () => {
    for (const url of ['/', '']) expect((await h.api(h.admin, 'DELETE', url)).statusCode).toBe(403);
    expect((await h.api(h.admin, 'DELETE', '/ghost')).statusCode).toBe(404);
  });

  it("removes the requester's shares on the path and below, on path boundaries", async () => {
    h.put('a/inner.txt', 'x');
    h.put('ab.txt', 'x');
    h.put('a%_/x.txt', 'x');
    const db = h.t.app.services.db;
    const share = (hash: string, path: string) =>
      db.insertInto('shares').values({ hash, path, user_id: 1, expire: 0, password_hash: '', token: '', created_at: 0 }).execute();
    await share('s1', '/a');
    await share('s2', '/a/');
    await share('s3', '/a/inner.txt');
    await share('s4', '/ab.txt');
    await share('s6', '/a%_/x.txt');
    await share('s7', '/aX_/x.txt');
    expect((await h.api(h.admin, 'DELETE', '/a/')).statusCode).toBe(204);
    const left = (await db.selectFrom('shares').select(['hash']).orderBy('hash').execute()).map((row) => row.hash);
    expect(left).toEqual(['s4', 's6', 's7']);
    expect((await h.api(h.admin, 'DELETE', '/a%_')).statusCode).toBe(204);
    const after = (await db.selectFrom('shares').select(['hash']).orderBy('hash').execute()).map((row) => row.hash);
    expect(after).toEqual(['s4', 's7']);
  });

  it('share cleanup touches only the given user and escapes LIKE wildcards', async () => {
    const db = h.t.app.services.db;
    const rows = [
      ['mine', '/x', 1],
      ['mine-below', '/x/y', 1],
      ['theirs', '/x', 2],
      ['wild', '/x_y/z', 1],
      ['pct', '/%/z', 1],
    ] as const;
    for (const [hash, path, userId] of rows) {
      await db.insertInto('shares').values({ hash, path, user_id: userId, expire: 0, password_hash: '', token: '', created_at: 0 }).execute();
    }
    await removeSharesUnder(db, 1, '/x');
    await removeSharesUnder(db, 1, '/_');
    const left = (await db.selectFrom('shares').select(['hash']).orderBy('hash').execute()).map((row) => row.hash);
    expect(left).toEqual(['pct', 'theirs', 'wild']);
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

describe('unknown methods', () => {
  it('answers 405 for OPTIONS on a resource', async () => {
    expect((await h.api(h.admin, 'OPTIONS', '/x')).statusCode).toBe(405);
  });
});
