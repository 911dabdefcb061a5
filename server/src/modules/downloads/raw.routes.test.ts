import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { copyFixture, writeFile } from './test-fixtures.js';

let t: TestApp;
let token: string;

beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterEach(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.request(token, { method, url, headers });

describe('GET /api/raw: permissions and errors', () => {
  it('answers 202 with no body when the user lacks download, for files and folders', async () => {
    writeFile(t.root, '/docs/a.txt', 'hello');
    await makeUser(t, { username: 'nodl', perm: { download: false } });
    const userToken = await loginAs(t, 'nodl');
    for (const url of ['/api/raw/docs/a.txt', '/api/raw/docs/', '/api/raw/missing.txt', '/api/raw/?files=%2Fdocs']) {
      const response = await t.request(userToken, { method: 'GET', url });
      expect(response.statusCode, url).toBe(202);
      expect(response.body).toBe('');
    }
  });

  it('requires a token (401), refuses denied paths (403) and reports missing ones (404)', async () => {
    writeFile(t.root, '/secret/key.txt', 'k');
    writeFile(t.root, '/open.txt', 'o');
    await makeUser(t, { username: 'ruled', rules: [{ regex: false, allow: false, path: '/secret', regexp: { raw: '' } }] });
    const userToken = await loginAs(t, 'ruled');
    expect((await t.request(undefined, { method: 'GET', url: '/api/raw/open.txt' })).statusCode).toBe(401);
    expect((await t.request(userToken, { method: 'GET', url: '/api/raw/secret/key.txt' })).statusCode).toBe(403);
    expect((await t.request(userToken, { method: 'GET', url: '/api/raw/secret/' })).statusCode).toBe(403);
    expect((await t.request(userToken, { method: 'GET', url: '/api/raw/open.txt' })).statusCode).toBe(200);
    const missing = await get('/api/raw/nothing-here.txt');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('404 Not Found\n');
  });

  it('reads the token from the auth cookie for downloads', async () => {
    writeFile(t.root, '/a.txt', 'cookie');
    const response = await t.app.inject({ method: 'GET', url: '/api/raw/a.txt', headers: { cookie: `auth=${token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('cookie');
  });

  it('keeps traversal inside the scope and refuses links that leave it', async () => {
    fs.writeFileSync(path.join(t.outside, 'secret.txt'), 'outside');
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), path.join(t.root, 'escape.txt'));
    fs.symlinkSync(t.outside, path.join(t.root, 'escape-dir'));
    writeFile(t.root, '/inner.txt', 'inside');
    fs.symlinkSync(path.join(t.root, 'inner.txt'), path.join(t.root, 'inner-link.txt'));
    expect((await get('/api/raw/escape.txt')).statusCode).toBe(403);
    expect((await get('/api/raw/escape-dir/secret.txt')).statusCode).toBe(403);
    expect((await get('/api/raw/escape-dir/')).statusCode).toBe(403);
    expect((await get('/api/raw/..%2F..%2Foutside%2Fsecret.txt')).statusCode).toBe(404);
    const inner = await get('/api/raw/inner-link.txt');
    expect(inner.statusCode).toBe(200);
    expect(inner.body).toBe('inside');
    expect(inner.headers['content-disposition']).toContain("filename*=utf-8''inner-link.txt");
  });

  it('answers a named pipe with the disposition header and an empty 200, without blocking', async () => {
    execFileSync('mkfifo', [path.join(t.root, 'pipe')]);
    const response = await get('/api/raw/pipe');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="pipe"; filename*=utf-8''pipe`);
  });
});

describe('GET /api/raw: one file', () => {
  it('streams an attachment as octet-stream with the security and cache headers', async () => {
    const content = Buffer.from(Array.from({ length: 300_000 }, (_, index) => index % 251));
    const file = writeFile(t.root, '/data/blob.bin', content);
    const response = await get('/api/raw/data/blob.bin');
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(content)).toBe(true);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-length']).toBe(String(content.length));
    expect(response.headers['content-disposition']).toBe(`attachment; filename="blob.bin"; filename*=utf-8''blob.bin`);
    expect(response.headers['cache-control']).toBe('private');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("script-src 'none'");
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['last-modified']).toBe(fs.statSync(file).mtime.toUTCString());
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+"$/);
  });

  it('serves inline with the type from the extension and lets Burrow frame it', async () => {
    copyFixture(t.root, 'media/photo.jpg');
    copyFixture(t.root, 'media/doc.pdf');
    const photo = await get('/api/raw/photo.jpg?inline=true');
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['content-disposition']).toBe(`inline; filename="photo.jpg"; filename*=utf-8''photo.jpg`);
    expect(photo.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(photo.headers['content-security-policy']).toBe("script-src 'none'; frame-ancestors 'self'");
    const pdf = await get('/api/raw/doc.pdf?inline=true');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-security-policy']).not.toContain('sandbox');
    expect(pdf.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  it('sandboxes active and unknown content shown inline', async () => {
    for (const name of ['script.svg', 'script.html', 'entity.xml']) copyFixture(t.root, `hostile/${name}`);
    writeFile(t.root, '/notes.unknownext', 'plain words');
    writeFile(t.root, '/app.js', 'alert(1)');
    const expected = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";
    for (const [name, type] of [
      ['script.svg', 'image/svg+xml'],
      ['script.html', 'text/html; charset=utf-8'],
      ['entity.xml', 'text/xml; charset=utf-8'],
      ['app.js', 'text/plain; charset=utf-8'],
      ['notes.unknownext', 'text/plain; charset=utf-8'],
    ] as const) {
      const response = await get(`/api/raw/${name}?inline=true`);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type'], name).toBe(type);
      expect(response.headers['content-security-policy'], name).toBe(expected);
      expect(response.headers['x-content-type-options'], name).toBe('nosniff');
    }
    // As an attachment the same file is opaque bytes.
    const attachment = await get('/api/raw/script.html');
    expect(attachment.headers['content-type']).toBe('application/octet-stream');
    expect(attachment.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('never serves a script or style sheet inline with a type a browser would run or apply', async () => {
    const files: Record<string, string> = {
      'evil.js': 'window.pwned = true;',
      'EVIL.JS': 'window.pwned = true;',
      'module.mjs': 'export const pwned = true;',
      'theme.css': 'body { background: url(/api/renew) }',
      'Theme.CSS': 'body { color: red }',
    };
    for (const [name, content] of Object.entries(files)) writeFile(t.root, `/${name}`, content);
    for (const name of Object.keys(files)) {
      const inline = await get(`/api/raw/${name}?inline=true`);
      expect(inline.statusCode, name).toBe(200);
      expect(inline.headers['content-type'], name).toBe('text/plain; charset=utf-8');
      expect(inline.headers['x-content-type-options'], name).toBe('nosniff');
      expect(inline.headers['content-disposition'], name).toMatch(/^inline;/);
      expect(inline.body, name).toBe(files[name]);
      // Ranges and HEAD carry the same type.
      const head = await get(`/api/raw/${name}?inline=true`, {}, 'HEAD');
      expect(head.headers['content-type'], name).toBe('text/plain; charset=utf-8');
      const range = await get(`/api/raw/${name}?inline=true`, { range: 'bytes=0-3' });
      expect(range.statusCode, name).toBe(206);
      expect(range.headers['content-type'], name).toBe('text/plain; charset=utf-8');
      const ranges = await get(`/api/raw/${name}?inline=true`, { range: 'bytes=0-1,3-4' });
      expect(ranges.body, name).toContain('Content-Type: text/plain; charset=utf-8');
      expect(ranges.body, name).not.toMatch(/javascript|text\/css/);
      // A download stays opaque bytes.
      const attachment = await get(`/api/raw/${name}`);
      expect(attachment.headers['content-type'], name).toBe('application/octet-stream');
      expect(attachment.headers['x-content-type-options'], name).toBe('nosniff');
    }
    // The public share download route serves them the same way, for a shared file or folder.
    const folder = (await t.request(token, { method: 'POST', url: '/api/share/', payload: {} })).json();
    const file = (await t.request(token, { method: 'POST', url: '/api/share/evil.js', payload: {} })).json();
    for (const url of [`/api/public/dl/${folder.hash}/evil.js?inline=true`, `/api/public/dl/${folder.hash}/theme.css?inline=true`, `/api/public/dl/${file.hash}?inline=true`]) {
      const response = await t.request(undefined, { method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('text/plain; charset=utf-8');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('encodes ASCII, non-ASCII, spaced and quoted names in the disposition header', async () => {
    const cases: [string, string, string][] = [
      ['document.pdf', 'document.pdf', 'document.pdf'],
      ['日本語.txt', '___.txt', '%E6%97%A5%E6%9C%AC%E8%AA%9E.txt'],
      ['my file.txt', 'my file.txt', 'my%20file.txt'],
      [`it's "q" (1).txt`, `it's _q_ (1).txt`, 'it%27s%20%22q%22%20%281%29.txt'],
    ];
    for (const [name, fallback, encoded] of cases) {
      writeFile(t.root, `/${name}`, 'x');
      for (const inline of [false, true]) {
        const response = await get(`/api/raw/${encodeURIComponent(name)}${inline ? '?inline=true' : ''}`);
        expect(response.statusCode, name).toBe(200);
        expect(response.headers['content-disposition']).toBe(`${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=utf-8''${encoded}`);
      }
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    writeFile(t.root, '/h.txt', 'twelve bytes');
    const response = await get('/api/raw/h.txt', {}, 'HEAD');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe('12');
    expect(response.body).toBe('');
  });

  it('serves an empty file', async () => {
    writeFile(t.root, '/empty.txt', '');
    const response = await get('/api/raw/empty.txt', { range: 'bytes=0-' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['content-length']).toBe('0');
  });
});

describe('GET /api/raw: ranges and conditional requests', () => {
  const content = 'abcdefghijklmnopqrstuvwxyz0123456789';
  beforeEach(() => {
    writeFile(t.root, '/r.txt', content);
  });

  it('serves single ranges with 206 and Content-Range', async () => {
    for (const [range, expected, contentRange] of [
      ['bytes=0-9', 'abcdefghij', 'bytes 0-9/36'],
      ['bytes=30-', '456789', 'bytes 30-35/36'],
      ['bytes=-4', '6789', 'bytes 32-35/36'],
      ['bytes=34-1000', '89', 'bytes 34-35/36'],
    ] as const) {
      const response = await get('/api/raw/r.txt', { range });
      expect(response.statusCode, range).toBe(206);
      expect(response.body).toBe(expected);
      expect(response.headers['content-range']).toBe(contentRange);
      expect(response.headers['content-length']).toBe(String(expected.length));
    }
  });

  it('answers 416 for a range past the end and ignores malformed ranges', async () => {
    const unsatisfiable = await get('/api/raw/r.txt', { range: 'bytes=36-40' });
    expect(unsatisfiable.statusCode).toBe(416);
    expect(unsatisfiable.headers['content-range']).toBe('bytes */36');
    for (const range of ['bytes=abc', 'items=0-3', 'bytes=5-2', 'bytes=-']) {
      const response = await get('/api/raw/r.txt', { range });
      expect(response.statusCode, range).toBe(200);
      expect(response.body).toBe(content);
    }
  });

  it('sends several ranges as multipart/byteranges', async () => {
    const response = await get('/api/raw/r.txt', { range: 'bytes=0-2, 10-12,-3' });
    expect(response.statusCode).toBe(206);
    const type = response.headers['content-type'] as string;
    const boundary = /^multipart\/byteranges; boundary=(\S+)$/.exec(type)?.[1];
    expect(boundary).toBeTruthy();
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    const parts = response.body.split(`--${boundary}`).slice(1, -1);
    expect(parts).toHaveLength(3);
    const bodies = parts.map((part) => part.split('\r\n\r\n')[1]!.replace(/\r\n$/, ''));
    expect(bodies).toEqual(['abc', 'klm', '789']);
    expect(parts[1]).toContain('Content-Range: bytes 10-12/36');
    expect(parts[1]).toContain('Content-Type: application/octet-stream');
    expect(response.body.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });

  it('honours If-None-Match, If-Modified-Since and If-Match', async () => {
    const first = await get('/api/raw/r.txt');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    const notModified = await get('/api/raw/r.txt', { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    expect((await get('/api/raw/r.txt', { 'if-none-match': '"other", W/' + etag })).statusCode).toBe(304);
    expect((await get('/api/raw/r.txt', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/api/raw/r.txt', { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await get('/api/raw/r.txt', { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).statusCode).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await get('/api/raw/r.txt', { 'if-none-match': '"other"', 'if-modified-since': lastModified })).statusCode).toBe(200);
    expect((await get('/api/raw/r.txt', { 'if-match': '"other"' })).statusCode).toBe(412);
    expect((await get('/api/raw/r.txt', { 'if-match': etag })).statusCode).toBe(200);
  });

  it('applies a range only while If-Range still matches', async () => {
    const first = await get('/api/raw/r.txt');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect((await get('/api/raw/r.txt', { range: 'bytes=0-1', 'if-range': etag })).statusCode).toBe(206);
    expect((await get('/api/raw/r.txt', { range: 'bytes=0-1', 'if-range': lastModified })).statusCode).toBe(206);
    const stale = await get('/api/raw/r.txt', { range: 'bytes=0-1', 'if-range': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(content);
    expect((await get('/api/raw/r.txt', { range: 'bytes=0-1', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' })).statusCode).toBe(200);
  });

  it('changes the entity tag when the file changes', async () => {
    const before = (await get('/api/raw/r.txt')).headers.etag;
    const file = path.join(t.root, 'r.txt');
    fs.writeFileSync(file, content + '!');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const after = await get('/api/raw/r.txt', { 'if-none-match': before as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });
});

describe('GET /api/usage', () => {
  it('reports the filesystem of a folder, zeros for a file, and applies rules', async () => {
    writeFile(t.root, '/docs/a.txt', 'a');
    writeFile(t.root, '/private/b.txt', 'b');
    const folder = await get('/api/usage/docs');
    expect(folder.statusCode).toBe(200);
    const usage = folder.json() as { total: number; used: number };
    const stats = fs.statfsSync(t.root);
    expect(usage.total).toBe(stats.blocks * stats.bsize);
    expect(usage.used).toBeGreaterThan(0);
    expect(usage.used).toBeLessThanOrEqual(usage.total);
    expect((await get('/api/usage/')).json()).toMatchObject({ total: usage.total });
    expect((await get('/api/usage/docs/a.txt')).json()).toEqual({ total: 0, used: 0 });
    expect((await get('/api/usage/nope')).statusCode).toBe(404);
    await makeUser(t, { username: 'limited', perm: { download: false }, rules: [{ regex: false, allow: false, path: '/private', regexp: { raw: '' } }] });
    const userToken = await loginAs(t, 'limited');
    expect((await t.request(userToken, { method: 'GET', url: '/api/usage/private' })).statusCode).toBe(403);
    expect((await t.request(userToken, { method: 'GET', url: '/api/usage/docs' })).statusCode).toBe(200);
  });
});

describe('GET /api/raw under a base URL', () => {
  it('reads the path after the prefix', async () => {
    const prefixed = await createTestApp({ baseURL: '/burrow' });
    try {
      writeFile(prefixed.root, '/sub dir/a b.txt', 'based');
      const prefixedToken = await prefixed.login();
      const response = await prefixed.request(prefixedToken, { method: 'GET', url: '/burrow/api/raw/sub%20dir/a%20b.txt' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('based');
      const archive = await prefixed.request(prefixedToken, { method: 'GET', url: '/burrow/api/raw/sub%20dir/?algo=tar' });
      expect(archive.headers['content-disposition']).toContain("filename*=utf-8''sub%20dir.tar");
    } finally {
      await prefixed.close();
    }
  });
});
