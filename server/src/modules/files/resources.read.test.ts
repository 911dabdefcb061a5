import fs from 'node:fs';
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, createFilesHarness, type FilesHarness } from './files.test-support.js';

let h: FilesHarness;
beforeEach(async () => {
  h = await createFilesHarness();
});
afterEach(async () => {
  await h.close();
});

const RFC3339_NANO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

describe('GET /api/resources (folders)', () => {
  it('lists a folder with every field of the wire format', async () => {
    h.mkdir('docs/sub');
    fs.chmodSync(h.real('docs/sub'), 0o755);
    h.put('docs/a.txt', 'hello');
    fs.chmodSync(h.real('docs/a.txt'), 0o644);
    const mtime = new Date('2024-05-06T07:08:09.123Z');
    fs.utimesSync(h.real('docs/a.txt'), mtime, mtime);
    const response = await h.api(h.admin, 'GET', '/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    const body = response.json();
    expect(body).toMatchObject({ path: '/docs/', name: 'docs', isDir: true, isSymlink: false, type: '', extension: '', numDirs: 1, numFiles: 1, sorting: { by: 'name', asc: false } });
    expect(body.mode & 0x80000000).not.toBe(0);
    expect(body.modified).toMatch(RFC3339_NANO);
    expect(body.items).toHaveLength(2);
    const [sub, file] = body.items;
    expect(sub).toEqual({ path: '/docs/sub', name: 'sub', size: expect.any(Number), extension: '', modified: expect.stringMatching(RFC3339_NANO), mode: 2147484141, isDir: true, isSymlink: false, type: '' });
    expect(file).toEqual({ path: '/docs/a.txt', name: 'a.txt', size: 5, extension: '.txt', modified: expect.stringMatching(RFC3339_NANO), mode: 420, isDir: false, isSymlink: false, type: 'text' });
    // utimes takes seconds as a float, so the nanoseconds are within a microsecond of .123
    expect(Math.abs(new Date(file.modified).getTime() - mtime.getTime())).toBeLessThanOrEqual(1);
    expect(file.modified).toMatch(/:09\.12[23]\d*(Z|[+-]\d\d:\d\d)$/);
    expect(body).not.toHaveProperty('content');
  });

  it('names the scope root "" and answers /api/resources without a slash too', async () => {
    h.put('x.txt', 'x');
    for (const url of ['/api/resources/', '/api/resources']) {
      const response = await h.t.request(h.admin, { method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ path: '/', name: '', isDir: true, numFiles: 1 });
    }
  });

  it('answers [] for an empty folder, 404 for a missing one and 401 without a token', async () => {
    h.mkdir('empty');
    const empty = await h.api(h.admin, 'GET', '/empty/');
    expect(empty.json()).toMatchObject({ items: [], numDirs: 0, numFiles: 0 });
    const missing = await h.api(h.admin, 'GET', '/nope/');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('404 Not Found\n');
    expect((await h.api(undefined, 'GET', '/')).statusCode).toBe(401);
  });

  it('types listing items by extension and content, with subtitles for videos', async () => {
    for (const name of ['clip.mp4', 'clip.vtt', 'clip.en.srt', 'photo.jpg', 'tone.mp3', 'doc.pdf']) copyFixture(h.t.root, `media/${name}`, `m/${name}`);
    h.put('m/notes', 'plain words');
    h.put('m/blob.dat', Buffer.from([0, 1, 2, 3]));
    h.put('m/data.json', '{"a":1}');
    h.put('m/archive.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1]));
    h.put('m/empty', '');
    const body = (await h.api(h.admin, 'GET', '/m/')).json();
    const types = Object.fromEntries(body.items.map((item: { name: string; type: string }) => [item.name, item.type]));
    expect(types).toEqual({
      'archive.zip': 'blob',
      'blob.dat': 'blob',
      'clip.en.srt': 'text',
      'clip.mp4': 'video',
      'clip.vtt': 'text',
      'data.json': 'text',
      'doc.pdf': 'pdf',
      empty: 'text',
      notes: 'text',
      'photo.jpg': 'image',
      'tone.mp3': 'audio',
    });
    const clip = body.items.find((item: { name: string }) => item.name === 'clip.mp4');
    expect(clip.subtitles).toEqual(['/m/clip.en.srt', '/m/clip.vtt']);
    expect(body.items.find((item: { name: string }) => item.name === 'tone.mp3')).not.toHaveProperty('subtitles');
  });
});

describe('GET /api/resources (files)', () => {
  it('returns a text file with content, and textImmutable without modify', async () => {
    h.put('notes.md', '# title\n');
    const body = (await h.api(h.admin, 'GET', '/notes.md')).json();
    expect(body).toMatchObject({ path: '/notes.md', name: 'notes.md', extension: '.md', type: 'text', content: '# title\n', isDir: false, size: 8 });
    expect(body).not.toHaveProperty('items');
    const reader = await h.user('reader', { perm: { modify: false } });
    expect((await h.api(reader, 'GET', '/notes.md')).json()).toMatchObject({ type: 'textImmutable', content: '# title\n' });
  });

  it('omits content without download', async () => {
    h.put('secret.txt', 'classified');
    const viewer = await h.user('viewer', { perm: { download: false } });
    const body = (await h.api(viewer, 'GET', '/secret.txt')).json();
    expect(body.type).toBe('text');
    expect(body).not.toHaveProperty('content');
  });

  it('returns subtitles for a video and no content for binary files', async () => {
    copyFixture(h.t.root, 'media/clip.webm', 'v/clip.webm');
    h.put('v/subs/track1.vtt', 'WEBVTT');
    h.put('v/Subtitles/other.ASS', '');
    h.put('v/clip.extras/deep.srt', '');
    h.put('v/clip.extras/notes.txt', '');
    h.put('v/unrelated.vtt', '');
    const body = (await h.api(h.admin, 'GET', '/v/clip.webm')).json();
    expect(body.type).toBe('video');
    expect(body.subtitles).toEqual(['/v/Subtitles/other.ASS', '/v/clip.extras/deep.srt', '/v/subs/track1.vtt']);
    expect(body).not.toHaveProperty('content');
  });

  it('X-Encoding: raw bytes as application/octet-stream for text, JSON otherwise, 202 without download', async () => {
    h.put('table.csv', 'a,b\n1,2\n');
    copyFixture(h.t.root, 'media/photo.jpg', 'photo.jpg');
    const raw = await h.api(h.admin, 'GET', '/table.csv', { headers: { 'x-encoding': 'true' } });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/octet-stream');
    expect(raw.body).toBe('a,b\n1,2\n');
    const image = await h.api(h.admin, 'GET', '/photo.jpg', { headers: { 'x-encoding': 'true' } });
    expect(image.json().type).toBe('image');
    const viewer = await h.user('viewer', { perm: { download: false } });
    const accepted = await h.api(viewer, 'GET', '/table.csv', { headers: { 'x-encoding': 'true' } });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.body).toBe('');
    // Without modify the type is textImmutable, so the JSON comes back instead.
    const reader = await h.user('reader', { perm: { modify: false } });
    expect((await h.api(reader, 'GET', '/table.csv', { headers: { 'x-encoding': 'true' } })).json().content).toBe('a,b\n1,2\n');
  });

  it('computes checksums by streaming, with the protocol statuses', async () => {
    const data = crypto.randomBytes(300_000);
    h.put('data.bin', data);
    h.mkdir('folder');
    for (const algorithm of ['md5', 'sha1', 'sha256', 'sha512']) {
      const response = await h.api(h.admin, 'GET', '/data.bin', { query: `checksum=${algorithm}` });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.checksums).toEqual({ [algorithm]: crypto.createHash(algorithm).update(data).digest('hex') });
      expect(body).not.toHaveProperty('content');
    }
    h.put('t.txt', 'text');
    const text = (await h.api(h.admin, 'GET', '/t.txt', { query: 'checksum=md5' })).json();
    expect(text).not.toHaveProperty('content');
    expect((await h.api(h.admin, 'GET', '/data.bin', { query: 'checksum=crc32' })).statusCode).toBe(400);
    expect((await h.api(h.admin, 'GET', '/folder', { query: 'checksum=md5' })).statusCode).toBe(500);
    const viewer = await h.user('viewer', { perm: { download: false } });
    const accepted = await h.api(viewer, 'GET', '/data.bin', { query: 'checksum=sha256' });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.body).toBe('');
  });

  it('describes a dangling link as invalid_link', async () => {
    fs.symlinkSync('missing-target', h.real('broken'));
    const body = (await h.api(h.admin, 'GET', '/broken')).json();
    expect(body).toMatchObject({ name: 'broken', isSymlink: true, type: 'invalid_link' });
    expect(body).not.toHaveProperty('content');
  });
});

describe('GET /api/resources/recursive', () => {
  it('returns every descendant depth-first in lexical order', async () => {
    h.put('target/nested/file.txt', 'hi');
    h.put('target/b.txt', 'b');
    h.put('target/a/inner.txt', 'i');
    const response = await h.t.request(h.admin, { method: 'GET', url: '/api/resources/recursive/target' });
    expect(response.statusCode).toBe(200);
    const items = response.json();
    expect(items.map((item: { path: string }) => item.path)).toEqual(['/target/a', '/target/a/inner.txt', '/target/b.txt', '/target/nested', '/target/nested/file.txt']);
    expect(items[1]).toEqual({ path: '/target/a/inner.txt', name: 'inner.txt', size: 1, modified: expect.stringMatching(RFC3339_NANO), isDir: false });
    expect(items[0].isDir).toBe(true);
  });

  it('prunes denied folders, answers 400 for a file and 404 for a missing path', async () => {
    h.put('t/open/a.txt', 'a');
    h.put('t/closed/b.txt', 'b');
    const limited = await h.user('limited', { rules: [{ regex: false, allow: false, path: '/t/closed', regexp: { raw: '' } }] });
    const items = (await h.t.request(limited, { method: 'GET', url: '/api/resources/recursive/t' })).json();
    expect(items.map((item: { path: string }) => item.path)).toEqual(['/t/open', '/t/open/a.txt']);
    expect((await h.t.request(h.admin, { method: 'GET', url: '/api/resources/recursive/t/open/a.txt' })).statusCode).toBe(400);
    expect((await h.t.request(h.admin, { method: 'GET', url: '/api/resources/recursive/none' })).statusCode).toBe(404);
  });
});
