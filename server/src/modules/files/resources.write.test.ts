import fs from 'node:fs';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesHarness, namesIn, type FilesHarness } from './files.test-support.js';
import type { FileEvent } from '../../storage/file-events.js';
import { createSharesRepository } from '../shares/shares.repository.js';

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

  it('share cleanup touches only the given user and matches whole path segments', async () => {
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
    const shares = createSharesRepository(db);
    expect(await shares.removeByOwnerUnder(1, '/x')).toBe(2);
    expect(await shares.removeByOwnerUnder(1, '/_')).toBe(0);
    const left = (await db.selectFrom('shares').select(['hash']).orderBy('hash').execute()).map((row) => row.hash);
    expect(left).toEqual(['pct', 'theirs', 'wild']);
  });
});

describe('unknown methods', () => {
  it('answers 405 for OPTIONS on a resource', async () => {
    expect((await h.api(h.admin, 'OPTIONS', '/x')).statusCode).toBe(405);
  });
});
