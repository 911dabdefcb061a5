import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesHarness, encodePath, namesIn, type FilesHarness } from './files.test-support.js';
import { Scope } from '../../storage/scoped-fs.js';

let h: FilesHarness;
let secret: string;
beforeEach(async () => {
  h = await createFilesHarness();
  secret = path.join(h.t.outside, 'secret.txt');
  fs.writeFileSync(secret, 'TOP-SECRET');
  fs.mkdirSync(path.join(h.t.outside, 'dir'));
  fs.writeFileSync(path.join(h.t.outside, 'dir', 'inner.txt'), 'INNER-SECRET');
});
afterEach(async () => {
  await h.close();
});

/** Everything outside the root, as a snapshot to compare after an attack. */
function outsideSnapshot(): string {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return [full + '/', ...walk(full)];
      return [`${full}=${entry.isFile() ? fs.readFileSync(full, 'utf8') : '?'}`];
    });
  return walk(h.t.outside).join('\n');
}

const raw = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, payload?: string) =>
  h.t.request(token, { method, url, payload, headers: payload === undefined ? {} : { 'content-type': 'text/plain' } });

describe('traversal in every encoding', () => {
  const traversals = [
    '/../outside/secret.txt',
    '/..%2foutside%2fsecret.txt',
    '/%2e%2e/outside/secret.txt',
    '/%2E%2E%2Foutside%2Fsecret.txt',
    '/%252e%252e/outside/secret.txt',
    '/a/../../outside/secret.txt',
    '/a/%2e%2e/%2e%2e/%2e%2e/outside/secret.txt',
    '//' + 'outside/secret.txt',
    '/..\\..\\outside\\secret.txt',
    '/..%5c..%5coutside%5csecret.txt',
    '/....//outside/secret.txt',
    '/.%2e/outside/secret.txt',
  ];

  it('never reads, writes or deletes outside the root through the resource path', async () => {
    const before = outsideSnapshot();
    for (const traversal of traversals) {
      for (const [method, payload] of [
        ['GET', undefined],
        ['POST', 'pwned'],
        ['PUT', 'pwned'],
        ['DELETE', undefined],
      ] as const) {
        const response = await raw(h.admin, method, `/api/resources${traversal}`, payload);
        expect(response.body).not.toContain('SECRET');
        expect(response.statusCode, `${method} ${traversal}`).not.toBe(500);
      }
      const recursive = await raw(h.admin, 'GET', `/api/resources/recursive${traversal.replace(/secret\.txt$/, '')}`);
      expect(recursive.body).not.toContain('secret.txt');
    }
    expect(outsideSnapshot()).toBe(before);
    // Whatever was written landed inside the root.
    for (const file of fs.readdirSync(h.t.root, { recursive: true }) as string[]) expect(path.join(h.t.root, file).startsWith(h.t.root)).toBe(true);
  });

  it('confines the PATCH destination however many times it is encoded', async () => {
    h.put('src.txt', 'source');
    const before = outsideSnapshot();
    const destinations = [
      encodeURIComponent('/../outside/stolen.txt'),
      encodeURIComponent(encodeURIComponent('/../outside/stolen.txt')),
      '%252e%252e%252foutside%252fstolen.txt',
      '%25252e%25252e%25252foutside%25252fstolen.txt',
      encodeURIComponent(encodeURIComponent('..\\..\\outside\\stolen.txt')),
      encodeURIComponent(encodeURIComponent(h.t.outside + '/stolen.txt')),
      encodeURIComponent(encodeURIComponent('//outside/stolen.txt')),
      encodeURIComponent(encodeURIComponent('file:///../outside/stolen.txt')),
    ];
    for (const destination of destinations) {
      for (const action of ['copy', 'rename']) {
        if (!h.exists('src.txt')) h.put('src.txt', 'source');
        const response = await raw(h.admin, 'PATCH', `/api/resources/src.txt?action=${action}&destination=${destination}&override=true`);
        expect([200, 400, 403, 404, 409], `${action} → ${destination}`).toContain(response.statusCode);
      }
    }
    expect(outsideSnapshot()).toBe(before);
    // An absolute destination is a path inside the scope, never a host path.
    expect(h.exists(path.join(h.t.outside.slice(1), 'stolen.txt'))).toBe(true);
  });

  it('answers 400 for NUL bytes, malformed escapes and over-long names, creating nothing', async () => {
    expect((await raw(h.admin, 'GET', '/api/resources/a%00b')).statusCode).toBe(400);
    expect((await raw(h.admin, 'POST', '/api/resources/a%00.txt', 'x')).statusCode).toBe(400);
    expect((await raw(h.admin, 'POST', '/api/resources/bad%zzescape', 'x')).statusCode).toBe(400);
    h.put('ok.txt', 'x');
    expect((await raw(h.admin, 'PATCH', `/api/resources/ok.txt?action=copy&destination=${encodeURIComponent('%00evil')}`)).statusCode).toBe(400);
    const longName = 'n'.repeat(256);
    expect((await raw(h.admin, 'POST', `/api/resources/${longName}`, 'x')).statusCode).toBe(400);
    const longPath = Array.from({ length: 40 }, () => 'd'.repeat(120)).join('/');
    expect((await raw(h.admin, 'POST', `/api/resources/${longPath}/`)).statusCode).toBe(400);
    expect(namesIn(h.t.root)).toEqual(['ok.txt']);
  });
});

describe('rules', () => {
  const deny = (pathRule: string) => ({ regex: false, allow: false, path: pathRule, regexp: { raw: '' } });
  const denyRegex = (raw: string) => ({ regex: true, allow: false, path: '', regexp: { raw } });
  const twice = (virtual: string) => encodeURIComponent(encodePath(virtual));

  it('a path rule matches on segment boundaries only (/a never denies /ab)', async () => {
    h.put('a/x.txt', 'a');
    h.put('ab/y.txt', 'ab');
    h.put('ab.txt', 'ab');
    const token = await h.user('ruled', { rules: [deny('/a')] });
    const listing = (await h.api(token, 'GET', '/')).json();
    expect(listing.items.map((item: { name: string }) => item.name)).toEqual(['ab', 'ab.txt']);
    expect((await h.api(token, 'GET', '/a/x.txt')).statusCode).toBe(403);
    expect((await h.api(token, 'GET', '/a/')).statusCode).toBe(403);
    expect((await h.api(token, 'GET', '/ab/y.txt')).statusCode).toBe(200);
    expect((await h.api(token, 'POST', '/a/new.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(token, 'PUT', '/a/x.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(token, 'DELETE', '/a')).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/a/x.txt', { query: `action=copy&destination=${twice('/c.txt')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/ab.txt', { query: `action=copy&destination=${twice('/a/c.txt')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/ab.txt', { query: `action=rename&destination=${twice('/a')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/ab.txt', { query: `action=copy&destination=${twice('/abc.txt')}` })).statusCode).toBe(200);
    // Traversal cannot dodge the rule: the path is canonicalised first.
    expect((await raw(token, 'GET', '/api/resources/ab/../a/x.txt')).statusCode).toBe(403);
    expect((await raw(token, 'GET', '/api/resources/ab/%2e%2e/a/x.txt')).statusCode).toBe(403);
    expect((await raw(token, 'GET', '/api/resources//a//x.txt')).statusCode).toBe(403);
    expect(h.read('a/x.txt')).toBe('a');
  });

  it('regex rules deny matches everywhere, including descendants of copy, move and delete', async () => {
    h.put('box/keep.txt', 'k');
    h.put('box/old.bak', 'b');
    h.put('clean/a.txt', 'a');
    const token = await h.user('regex', { rules: [denyRegex('\\.bak$'), deny('/locked')] });
    expect((await h.api(token, 'GET', '/box/old.bak')).statusCode).toBe(403);
    const listing = (await h.api(token, 'GET', '/box/')).json();
    expect(listing.items.map((item: { name: string }) => item.name)).toEqual(['keep.txt']);
    expect((await h.api(token, 'DELETE', '/box')).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/box', { query: `action=copy&destination=${twice('/box2')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/box', { query: `action=rename&destination=${twice('/box2')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/clean/a.txt', { query: `action=rename&destination=${twice('/clean/a.bak')}` })).statusCode).toBe(403);
    // The destination of each descendant is checked too.
    expect((await h.api(token, 'PATCH', '/clean', { query: `action=copy&destination=${twice('/locked')}` })).statusCode).toBe(403);
    expect(namesIn(h.real('box'))).toEqual(['keep.txt', 'old.bak']);
    expect(h.exists('box2')).toBe(false);
    expect(h.exists('locked')).toBe(false);
    // Without the denied descendant the same operations work.
    expect((await h.api(token, 'DELETE', '/clean')).statusCode).toBe(204);
  });

  it('case variants are distinct files on a case-sensitive root and folded on a case-insensitive one', async () => {
    h.put('Private/x.txt', 'P');
    h.put('private/x.txt', 'p');
    const token = await h.user('cased', { rules: [deny('/private')] });
    expect((await h.api(token, 'GET', '/private/x.txt')).statusCode).toBe(403);
    expect((await h.api(token, 'GET', '/Private/x.txt')).json().content).toBe('P');
    const folded = new Scope({ root: h.t.root, globalRules: [], userRules: [deny('/private')], hideDotfiles: false, followExternalSymlinks: false, caseInsensitive: true });
    await expect(folded.resolve('/PRIVATE/x.txt', 'read')).rejects.toMatchObject({ status: 403 });
    await expect(folded.resolve('/pRiVaTe', 'delete')).rejects.toMatchObject({ status: 403 });
  });

  it('hides dotfiles under hideDotfiles in listings and recursive listings', async () => {
    h.put('.env', 'x');
    h.put('.config/a', 'x');
    h.put('visible.txt', 'x');
    const token = await h.user('tidy', { hideDotfiles: true });
    expect((await h.api(token, 'GET', '/')).json().items.map((item: { name: string }) => item.name)).toEqual(['visible.txt']);
    expect((await h.t.request(token, { method: 'GET', url: '/api/resources/recursive/' })).json().map((item: { path: string }) => item.path)).toEqual(['/visible.txt']);
    // Lookups of a hidden path are denied as well: any dot segment, not only the base name.
    expect((await h.api(token, 'GET', '/.env')).statusCode).toBe(403);
    expect((await h.api(token, 'POST', '/.new', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(token, 'DELETE', '/.env')).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/visible.txt', { query: `action=rename&destination=${encodeURIComponent('%2Ehidden')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'GET', '/.config/a')).statusCode).toBe(403);
    expect(h.read('.env')).toBe('x');
    expect(h.exists('.new')).toBe(false);
    expect(h.exists('visible.txt')).toBe(true);
  });
});
