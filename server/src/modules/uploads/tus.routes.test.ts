import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import type { FileEvent } from '../../storage/file-events.js';
import { fileSha256, randomBytes, sha256, stagingDir, stagingFiles, tusClient, tusUrl, uploadInChunks, uploadRows } from './tus.test-support.js';

let t: TestApp;
let token: string;
let tus: ReturnType<typeof tusClient>;

beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
  tus = tusClient(t, token);
});
afterEach(async () => {
  await t.close();
});

describe('POST /api/tus (create)', () => {
  it('registers the upload, answers 201 with an encoded Location and touches no user file', async () => {
    const response = await tus.create('/docs/a b/ünï #1.bin', 10);
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('201 Created\n');
    expect(response.headers.location).toBe('/api/tus/docs/a%20b/%C3%BCn%C3%AF%20%231.bin');
    expect(response.headers['tus-resumable']).toBe('1.0.0');
    expect(fs.existsSync(path.join(t.root, 'docs'))).toBe(false);
    expect(stagingFiles(t)).toHaveLength(1);
    const [row] = await uploadRows(t);
    expect(row).toMatchObject({ userId: 1, path: '/docs/a b/ünï #1.bin', length: 10, offset: 0, override: false });
    expect(path.dirname(row!.stagingPath)).toBe(stagingDir(t));
  });

  it('recreates the staging folder if the cache folder was cleared', async () => {
    fs.rmSync(t.config.cacheDir, { recursive: true, force: true });
    expect((await tus.create('/after-clear.txt', 2)).statusCode).toBe(201);
    expect((await tus.patch('/after-clear.txt', 0, Buffer.from('ok'))).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'after-clear.txt'), 'utf8')).toBe('ok');
  });

  it('puts the base URL in front of the Location', async () => {
    const prefixed = await createTestApp({ baseURL: '/files-app' });
    try {
      const prefixedToken = await prefixed.login();
      const response = await prefixed.request(prefixedToken, { method: 'POST', url: '/files-app/api/tus/x.txt?override=false', headers: { 'upload-length': '3' } });
      expect(response.statusCode).toBe(201);
      expect(response.headers.location).toBe('/files-app/api/tus/x.txt');
    } finally {
      await prefixed.close();
    }
  });

  it('validates Upload-Length: 400 for malformed, 413 beyond the maximum', async () => {
    for (const bad of ['', 'abc', '-1', '1.5', '1e3', '+5', '0x10']) {
      const response = await tus.create('/f.bin', bad);
      expect(response.statusCode, `Upload-Length ${bad}`).toBe(400);
      expect(response.body).toMatch(/^400 Bad Request \(.*Upload-Length\)/);
    }
    for (const huge of [String(2 ** 40 + 1), '99999999999999999999999999']) {
      expect((await tus.create('/f.bin', huge)).statusCode).toBe(413);
    }
    expect(stagingFiles(t)).toHaveLength(0);
    expect(await uploadRows(t)).toHaveLength(0);
  });

  it('answers 409 for an existing file without override, and leaves it alone', async () => {
    fs.writeFileSync(path.join(t.root, 'taken.txt'), 'old');
    const response = await tus.create('/taken.txt', 5, false);
    expect(response.statusCode).toBe(409);
    expect(fs.readFileSync(path.join(t.root, 'taken.txt'), 'utf8')).toBe('old');
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it('answers 400 when the target is a folder, a trailing-slash path or the root; 404 below a file', async () => {
    fs.mkdirSync(path.join(t.root, 'folder'));
    fs.writeFileSync(path.join(t.root, 'plain.txt'), 'x');
    expect((await tus.create('/folder', 4, true)).statusCode).toBe(400);
    expect((await t.request(token, { method: 'POST', url: '/api/tus/new-folder/', headers: { 'upload-length': '4' } })).statusCode).toBe(400);
    expect((await t.request(token, { method: 'POST', url: '/api/tus', headers: { 'upload-length': '4' } })).statusCode).toBe(400);
    expect((await tus.create('/plain.txt/inner.bin', 4)).statusCode).toBe(404);
    expect((await tus.create('/plain.txt/deeper/inner.bin', 4)).statusCode).toBe(404);
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it('replaces an earlier upload of the same user for the same path', async () => {
    await tus.create('/again.bin', 8);
    expect((await tus.patch('/again.bin', 0, Buffer.from('abcd'))).statusCode).toBe(204);
    const [first] = await uploadRows(t);
    const again = await tus.create('/again.bin', 6);
    expect(again.statusCode).toBe(201);
    const rows = await uploadRows(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(first!.id);
    expect(fs.existsSync(first!.stagingPath)).toBe(false);
    expect((await tus.head('/again.bin')).headers['upload-offset']).toBe('0');
  });

  it('keeps uploads of different users for the same path apart', async () => {
    await makeUser(t, { username: 'bob' });
    const bob = tusClient(t, await loginAs(t, 'bob'));
    await tus.create('/shared.bin', 4);
    await bob.create('/shared.bin', 6);
    await tus.patch('/shared.bin', 0, Buffer.from('ab'));
    expect((await tus.head('/shared.bin')).headers).toMatchObject({ 'upload-offset': '2', 'upload-length': '4' });
    expect((await bob.head('/shared.bin')).headers).toMatchObject({ 'upload-offset': '0', 'upload-length': '6' });
  });

  it('completes a zero-length upload at creation, writing an empty file', async () => {
    const response = await tus.create('/sub/empty.txt', 0);
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe('/api/tus/sub/empty.txt');
    const file = path.join(t.root, 'sub', 'empty.txt');
    expect(fs.statSync(file).size).toBe(0);
    expect(stagingFiles(t)).toHaveLength(0);
    const head = await tus.head('/sub/empty.txt');
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({ 'upload-offset': '0', 'upload-length': '0' });
    // It exists now: a second empty upload without override is a conflict, with override fine.
    expect((await tus.create('/sub/empty.txt', 0, false)).statusCode).toBe(409);
    fs.writeFileSync(file, 'not empty');
    expect((await tus.create('/sub/empty.txt', 0, true)).statusCode).toBe(201);
    expect(fs.statSync(file).size).toBe(0);
  });

  it('needs a token (401) and refuses other methods (405)', async () => {
    expect((await t.app.inject({ method: 'POST', url: tusUrl('/x', false), headers: { 'upload-length': '1' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'HEAD', url: tusUrl('/x') })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PATCH', url: tusUrl('/x'), headers: { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' }, payload: 'a' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: tusUrl('/x') })).statusCode).toBe(401);
    expect((await t.request(token, { method: 'PUT', url: tusUrl('/x'), payload: 'a' })).statusCode).toBe(405);
  });
});

describe('PATCH and HEAD', () => {
  it('reassembles a chunked upload, reporting offset and length at each step', async () => {
    const data = randomBytes(300_000, 7);
    expect((await tus.create('/media/big.bin', data.length)).statusCode).toBe(201);
    const chunk = 64 * 1024;
    for (let offset = 0; offset < data.length; offset += chunk) {
      const head = await tus.head('/media/big.bin');
      expect(head.statusCode).toBe(200);
      expect(head.headers).toMatchObject({ 'upload-offset': String(offset), 'upload-length': String(data.length), 'cache-control': 'no-store' });
      const part = data.subarray(offset, offset + chunk);
      const response = await tus.patch('/media/big.bin', offset, part);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['upload-offset']).toBe(String(offset + part.length));
      expect(response.headers['tus-resumable']).toBe('1.0.0');
      if (offset + part.length < data.length) expect(fs.existsSync(path.join(t.root, 'media', 'big.bin'))).toBe(false);
    }
    expect(fileSha256(path.join(t.root, 'media', 'big.bin'))).toBe(sha256(data));
    expect(stagingFiles(t)).toHaveLength(0);
    // The finished upload is remembered briefly, so a client retrying its last request learns it is done.
    const head = await tus.head('/media/big.bin');
    expect(head.headers).toMatchObject({ 'upload-offset': String(data.length), 'upload-length': String(data.length) });
    expect((await tus.patch('/media/big.bin', data.length, Buffer.alloc(0))).statusCode).toBe(204);
    expect((await tus.patch('/media/big.bin', 3, Buffer.from('x'))).statusCode).toBe(409);
  });

  it('accepts a streamed body without Content-Length', async () => {
    const data = randomBytes(200_000, 3);
    await tus.create('/streamed.bin', data.length);
    const body = Readable.from([data.subarray(0, 50_000), data.subarray(50_000, 120_000), data.subarray(120_000)]);
    const response = await tus.patch('/streamed.bin', 0, body);
    expect(response.statusCode).toBe(204);
    expect(response.headers['upload-offset']).toBe(String(data.length));
    expect(fileSha256(path.join(t.root, 'streamed.bin'))).toBe(sha256(data));
  });

  it('answers 409 for a stale offset and writes nothing', async () => {
    await tus.create('/stale.bin', 10);
    await tus.patch('/stale.bin', 0, Buffer.from('12345'));
    for (const offset of [0, 3, 7]) {
      const response = await tus.patch('/stale.bin', offset, Buffer.from('abc'));
      expect(response.statusCode).toBe(409);
    }
    expect((await tus.head('/stale.bin')).headers['upload-offset']).toBe('5');
    const [row] = await uploadRows(t);
    expect(fs.readFileSync(row!.stagingPath, 'utf8')).toBe('12345');
  });

  it('validates the request: 415 content type, 400 offset, 404 unknown upload', async () => {
    await tus.create('/v.bin', 10);
    for (const type of ['application/octet-stream', 'text/plain', '']) {
      expect((await tus.patch('/v.bin', 0, Buffer.from('a'), { 'content-type': type })).statusCode).toBe(415);
    }
    for (const offset of [undefined, '', 'x', '-1', '1.0', '99999999999999999999']) {
      const response = await tus.patch('/v.bin', offset, Buffer.from('a'));
      expect(response.statusCode, `offset ${offset}`).toBe(400);
    }
    expect((await tus.patch('/v.bin', 11, Buffer.from('a'))).statusCode).toBe(400);
    expect((await tus.patch('/missing.bin', 0, Buffer.from('a'))).statusCode).toBe(404);
    expect((await tus.head('/missing.bin')).statusCode).toBe(404);
    expect((await t.request(token, { method: 'GET', url: tusUrl('/missing.bin') })).statusCode).toBe(404);
    const [row] = await uploadRows(t);
    expect(fs.statSync(row!.stagingPath).size).toBe(0);
  });

  it('answers GET like HEAD', async () => {
    await tus.create('/g.bin', 4);
    await tus.patch('/g.bin', 0, Buffer.from('ab'));
    const response = await t.request(token, { method: 'GET', url: tusUrl('/g.bin') });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'upload-offset': '2', 'upload-length': '4' });
  });

  it('refuses an over-long body with 413 and nothing extra written (declared length)', async () => {
    await tus.create('/over.bin', 10);
    await tus.patch('/over.bin', 0, Buffer.from('1234'));
    const response = await tus.patch('/over.bin', 4, Buffer.from('abcdefghijk'));
    expect(response.statusCode).toBe(413);
    const [row] = await uploadRows(t);
    expect(fs.readFileSync(row!.stagingPath, 'utf8')).toBe('1234');
    expect((await tus.head('/over.bin')).headers['upload-offset']).toBe('4');
  });

  it('refuses an over-long streamed body with 413, rolling back to the last good offset', async () => {
    await tus.create('/over-stream.bin', 100_000);
    await tus.patch('/over-stream.bin', 0, Buffer.alloc(1000, 1));
    const body = Readable.from([Buffer.alloc(60_000, 2), Buffer.alloc(60_000, 3)]);
    const response = await tus.patch('/over-stream.bin', 1000, body);
    expect(response.statusCode).toBe(413);
    const [row] = await uploadRows(t);
    expect(fs.statSync(row!.stagingPath).size).toBe(1000);
    expect(row!.offset).toBe(1000);
    // The upload goes on from there.
    const rest = await tus.patch('/over-stream.bin', 1000, Buffer.alloc(99_000, 4));
    expect(rest.statusCode).toBe(204);
    const written = fs.readFileSync(path.join(t.root, 'over-stream.bin'));
    expect(written.length).toBe(100_000);
    expect(written.subarray(0, 1000).every((byte) => byte === 1)).toBe(true);
    expect(written.subarray(1000).every((byte) => byte === 4)).toBe(true);
  });

  it('replaces an existing file only when complete (override=true)', async () => {
    const target = path.join(t.root, 'report.txt');
    fs.writeFileSync(target, 'old content');
    const data = randomBytes(50_000, 11);
    await tus.create('/report.txt', data.length, true);
    await tus.patch('/report.txt', 0, data.subarray(0, 20_000));
    expect(fs.readFileSync(target, 'utf8')).toBe('old content');
    await tus.patch('/report.txt', 20_000, data.subarray(20_000));
    expect(fileSha256(target)).toBe(sha256(data));
    expect(fs.readdirSync(t.root)).toEqual(['report.txt']);
  });

  it('answers 409 at completion when the target appeared meanwhile, keeping the newcomer', async () => {
    await tus.create('/race.txt', 6, false);
    await tus.patch('/race.txt', 0, Buffer.from('abc'));
    fs.writeFileSync(path.join(t.root, 'race.txt'), 'someone else');
    const response = await tus.patch('/race.txt', 3, Buffer.from('def'));
    expect(response.statusCode).toBe(409);
    expect(fs.readFileSync(path.join(t.root, 'race.txt'), 'utf8')).toBe('someone else');
    expect(stagingFiles(t)).toHaveLength(0);
    expect(await uploadRows(t)).toHaveLength(0);
    // The client must not be told on retry that the upload finished.
    expect((await tus.head('/race.txt')).statusCode).toBe(404);
  });

  it('answers 400 when the target became a folder', async () => {
    await tus.create('/became-dir', 4, true);
    fs.mkdirSync(path.join(t.root, 'became-dir'));
    expect((await tus.patch('/became-dir', 0, Buffer.from('abcd'))).statusCode).toBe(400);
    expect(fs.statSync(path.join(t.root, 'became-dir')).isDirectory()).toBe(true);
  });

  it('creates missing parent folders at completion and reports what changed', async () => {
    const events: FileEvent[] = [];
    t.app.services.fileEvents.on((event) => {
      events.push(event);
    });
    await uploadInChunks(t, token, '/x/y/new.txt', Buffer.from('hello'), 2);
    fs.writeFileSync(path.join(t.root, 'x', 'y', 'old.txt'), 'before');
    await uploadInChunks(t, token, '/x/y/old.txt', Buffer.from('after'), 10, true);
    expect(events.map((event) => [event.kind, 'virtual' in event ? event.virtual : ''])).toEqual([
      ['created', '/x'],
      ['created', '/x/y'],
      ['created', '/x/y/new.txt'],
      ['modified', '/x/y/old.txt'],
    ]);
    expect(events[2]).toMatchObject({ real: path.join(fs.realpathSync(t.root), 'x', 'y', 'new.txt'), isDir: false });
    expect(fs.readFileSync(path.join(t.root, 'x', 'y', 'old.txt'), 'utf8')).toBe('after');
  });

  it('writes new files with the configured mode and keeps the mode of a replaced one', async () => {
    await uploadInChunks(t, token, '/mode.txt', Buffer.from('abc'), 3);
    expect(fs.statSync(path.join(t.root, 'mode.txt')).mode & 0o777).toBe(t.config.fileMode & ~process.umask() & 0o777);
    fs.writeFileSync(path.join(t.root, 'script.sh'), 'old');
    fs.chmodSync(path.join(t.root, 'script.sh'), 0o751);
    await uploadInChunks(t, token, '/script.sh', Buffer.from('new'), 3, true);
    expect(fs.statSync(path.join(t.root, 'script.sh')).mode & 0o777).toBe(0o751);
  });
});

describe('DELETE', () => {
  it('abandons an upload: staging file and record gone, the target untouched', async () => {
    fs.writeFileSync(path.join(t.root, 'keep.txt'), 'keep me');
    await tus.create('/keep.txt', 10, true);
    await tus.patch('/keep.txt', 0, Buffer.from('12345'));
    const response = await tus.remove('/keep.txt');
    expect(response.statusCode).toBe(204);
    expect(stagingFiles(t)).toHaveLength(0);
    expect(await uploadRows(t)).toHaveLength(0);
    expect(fs.readFileSync(path.join(t.root, 'keep.txt'), 'utf8')).toBe('keep me');
    expect((await tus.head('/keep.txt')).statusCode).toBe(404);
    expect((await tus.remove('/keep.txt')).statusCode).toBe(404);
  });

  it('answers 403 for the root', async () => {
    expect((await t.request(token, { method: 'DELETE', url: '/api/tus/' })).statusCode).toBe(403);
    expect((await t.request(token, { method: 'DELETE', url: '/api/tus' })).statusCode).toBe(403);
  });
});

describe('uploads created without Upload-Length', () => {
  it('Upload-Defer-Length: 1 (tus 1.0): the file appears once a PATCH declares the length and it is reached', async () => {
    const data = randomBytes(3000, 7);
    const created = await tus.create('/deferred.bin', undefined, false, { 'upload-defer-length': '1' });
    expect(created.statusCode).toBe(201);
    const head = await tus.head('/deferred.bin');
    expect(head.headers['upload-defer-length']).toBe('1');
    expect(head.headers['upload-length']).toBeUndefined();
    expect((await tus.patch('/deferred.bin', 0, data.subarray(0, 1000))).headers['upload-offset']).toBe('1000');
    expect((await tus.patch('/deferred.bin', 1000, data.subarray(1000, 1500))).statusCode).toBe(204);
    // Short bodies alone never end an upload whose client promised to declare its length.
    expect(fs.existsSync(path.join(t.root, 'deferred.bin'))).toBe(false);
    const last = await tus.patch('/deferred.bin', 1500, data.subarray(1500), { 'upload-length': String(data.length) });
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-offset']).toBe(String(data.length));
    expect(fileSha256(path.join(t.root, 'deferred.bin'))).toBe(sha256(data));
    expect((await tus.head('/deferred.bin')).headers['upload-length']).toBe(String(data.length));
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it('checks a declared length: 400 when it is below the offset, malformed or changed, 413 past the disk', async () => {
    await tus.create('/declared.bin', undefined, false, { 'upload-defer-length': '1' });
    await tus.patch('/declared.bin', 0, Buffer.from('12345'));
    expect((await tus.patch('/declared.bin', 5, Buffer.from('6'), { 'upload-length': '3' })).statusCode).toBe(400);
    expect((await tus.patch('/declared.bin', 5, Buffer.from('6'), { 'upload-length': 'ten' })).statusCode).toBe(400);
    const huge = await tus.patch('/declared.bin', 5, Buffer.from('6'), { 'upload-length': String(2 ** 39) });
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toContain('free space');
    expect((await tus.patch('/declared.bin', 5, Buffer.from('6'), { 'upload-length': '10' })).statusCode).toBe(204);
    expect((await tus.patch('/declared.bin', 6, Buffer.from('7'), { 'upload-length': '11' })).statusCode).toBe(400);
    expect((await tus.patch('/declared.bin', 6, Buffer.from('7890'), { 'upload-length': '10' })).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'declared.bin'), 'utf8')).toBe('1234567890');
    expect((await tus.create('/both.bin', 5, false, { 'upload-defer-length': '1' })).statusCode).toBe(400);
    expect((await tus.create('/bad-defer.bin', undefined, false, { 'upload-defer-length': '2' })).statusCode).toBe(400);
  });

  /** Exactly what filebrowser 2.31's front end sends: a bare POST, then tus-js-client resuming it. */
  const legacyHeaders = { 'tus-resumable': '1.0.0' };
  async function legacyUpload(name: string, data: Buffer, chunkSize: number) {
    await t.app.services.settings.save({ ...t.app.services.settings.get(), tus: { chunkSize, retryCount: 5 } });
    const created = await t.request(token, { method: 'POST', url: tusUrl(name, false) });
    expect(created.statusCode).toBe(201);
    const head = await t.request(token, { method: 'HEAD', url: tusUrl(name), headers: legacyHeaders });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    // Its client needs a number here; -1 never equals an offset, so it goes on sending.
    expect(head.headers['upload-length']).toBe('-1');
    const sizes: boolean[] = [];
    for (let offset = 0; offset < data.length || offset === 0; offset += chunkSize) {
      sizes.push(fs.existsSync(path.join(t.root, name)));
      const response = await tus.patch(name, offset, data.subarray(offset, offset + chunkSize), legacyHeaders);
      expect(response.statusCode).toBe(204);
      expect(response.headers['upload-offset']).toBe(String(Math.min(data.length, offset + chunkSize)));
      if (data.length === 0) break;
    }
    return sizes;
  }

  it("filebrowser 2.31's front end: a bare POST, then chunks at the settings' size; the short last one ends the upload", async () => {
    const data = randomBytes(2500, 3);
    const seenBefore = await legacyUpload('/legacy.bin', data, 1024);
    expect(seenBefore).toEqual([false, false, false]);
    expect(fileSha256(path.join(t.root, 'legacy.bin'))).toBe(sha256(data));
    const head = await t.request(token, { method: 'HEAD', url: tusUrl('/legacy.bin'), headers: legacyHeaders });
    expect([head.headers['upload-offset'], head.headers['upload-length']]).toEqual(['2500', '2500']);
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it("filebrowser 2.31's front end: an empty file is its one empty PATCH", async () => {
    await legacyUpload('/legacy-empty.txt', Buffer.alloc(0), 1024);
    expect(fs.readFileSync(path.join(t.root, 'legacy-empty.txt'), 'utf8')).toBe('');
  });
});
