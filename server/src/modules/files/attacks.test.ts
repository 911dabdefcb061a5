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
    // Lookups of a hidden name are denied as well (by base name, as upstream).
    expect((await h.api(token, 'GET', '/.env')).statusCode).toBe(403);
    expect((await h.api(token, 'POST', '/.new', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(token, 'DELETE', '/.env')).statusCode).toBe(403);
    expect((await h.api(token, 'PATCH', '/visible.txt', { query: `action=rename&destination=${encodeURIComponent('%2Ehidden')}` })).statusCode).toBe(403);
    expect((await h.api(token, 'GET', '/.config/a')).statusCode).toBe(200);
    expect(h.read('.env')).toBe('x');
    expect(h.exists('.new')).toBe(false);
    expect(h.exists('visible.txt')).toBe(true);
  });
});

describe('symlinks pointing out of the scope', () => {
  beforeEach(() => {
    h.mkdir('home');
    fs.symlinkSync(h.t.outside, h.real('home/escape-dir'));
    fs.symlinkSync(secret, h.real('home/escape-file'));
    fs.symlinkSync('../../outside/secret.txt', h.real('home/relative-escape'));
    h.put('home/own.txt', 'mine');
    fs.symlinkSync('own.txt', h.real('home/inner-link'));
  });

  it('are refused for reads and omitted from listings', async () => {
    for (const target of ['/home/escape-dir', '/home/escape-dir/secret.txt', '/home/escape-file', '/home/relative-escape']) {
      for (const query of ['', 'checksum=md5']) {
        const response = await h.api(h.admin, 'GET', target, { query });
        expect(response.statusCode, target).toBe(403);
      }
      expect((await h.api(h.admin, 'GET', target, { headers: { 'x-encoding': 'true' } })).statusCode).toBe(403);
    }
    const listing = (await h.api(h.admin, 'GET', '/home/')).json();
    expect(listing.items.map((item: { name: string; isSymlink: boolean }) => [item.name, item.isSymlink])).toEqual([
      ['inner-link', true],
      ['own.txt', false],
    ]);
    const recursive = (await h.t.request(h.admin, { method: 'GET', url: '/api/resources/recursive/home' })).json();
    expect(recursive.map((item: { path: string }) => item.path)).toEqual(['/home/inner-link', '/home/own.txt']);
    expect(JSON.stringify(recursive)).not.toContain('secret');
    // A link that stays inside is followed: target size and content.
    expect((await h.api(h.admin, 'GET', '/home/inner-link')).json()).toMatchObject({ isSymlink: true, size: 4, content: 'mine' });
  });

  it('are refused for writes, leaving the outside untouched', async () => {
    const before = outsideSnapshot();
    expect((await h.api(h.admin, 'POST', '/home/escape-dir/new.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'POST', '/home/escape-dir/newdir/')).statusCode).toBe(403);
    expect((await h.api(h.admin, 'POST', '/home/escape-file', { query: 'override=true', payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'PUT', '/home/escape-file', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'PUT', '/home/escape-dir/secret.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'DELETE', '/home/escape-dir/secret.txt')).statusCode).toBe(403);
    expect(outsideSnapshot()).toBe(before);
  });

  it('are never dereferenced by copy or move', async () => {
    const before = outsideSnapshot();
    const twice = (virtual: string) => encodeURIComponent(encodePath(virtual));
    expect((await h.api(h.admin, 'PATCH', '/home/escape-file', { query: `action=copy&destination=${twice('/stolen.txt')}` })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'PATCH', '/home/escape-dir', { query: `action=copy&destination=${twice('/stolen')}` })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'PATCH', '/home/escape-file', { query: `action=rename&destination=${twice('/moved')}` })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'PATCH', '/home/own.txt', { query: `action=copy&destination=${twice('/home/escape-dir/planted.txt')}` })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'PATCH', '/home/own.txt', { query: `action=rename&destination=${twice('/home/escape-dir/planted.txt')}` })).statusCode).toBe(403);
    // Copying the folder copies the inside link as a link and skips the escaping ones.
    expect((await h.api(h.admin, 'PATCH', '/home', { query: `action=copy&destination=${twice('/copy')}` })).statusCode).toBe(200);
    expect(namesIn(h.real('copy'))).toEqual(['inner-link', 'own.txt']);
    expect(fs.readlinkSync(h.real('copy/inner-link'))).toBe('own.txt');
    // A relative link that stayed inside at its old place but would escape from the new one is skipped.
    h.put('deep/a/b/file.txt', 'f');
    fs.symlinkSync('../../../deep/a/b/file.txt', h.real('deep/a/b/up'));
    expect((await h.api(h.admin, 'PATCH', '/deep/a/b', { query: `action=copy&destination=${twice('/b2')}` })).statusCode).toBe(200);
    expect(namesIn(h.real('b2'))).toEqual(['file.txt']);
    expect(outsideSnapshot()).toBe(before);
    expect(JSON.stringify((await h.t.request(h.admin, { method: 'GET', url: '/api/resources/recursive/' })).json())).not.toContain('SECRET');
  });

  it('delete removes links, never their targets', async () => {
    const before = outsideSnapshot();
    expect((await h.api(h.admin, 'DELETE', '/home/escape-file')).statusCode).toBe(204);
    expect(h.exists('home/escape-file')).toBe(false);
    expect((await h.api(h.admin, 'DELETE', '/home')).statusCode).toBe(204);
    expect(h.exists('home')).toBe(false);
    expect(outsideSnapshot()).toBe(before);
  });

  it('are followed only with followExternalSymlinks', async () => {
    const open = await createFilesHarness({ followExternalSymlinks: true });
    try {
      fs.writeFileSync(path.join(open.t.outside, 'shared.txt'), 'shared');
      fs.symlinkSync(path.join(open.t.outside, 'shared.txt'), open.real('link.txt'));
      expect((await open.api(open.admin, 'GET', '/link.txt')).json()).toMatchObject({ content: 'shared', isSymlink: true });
      expect((await open.api(open.admin, 'GET', '/')).json().items.map((item: { name: string }) => item.name)).toEqual(['link.txt']);
    } finally {
      await open.close();
    }
  });
});

describe('dangling links', () => {
  it('are listed as invalid_link and writes through them are refused, creating nothing anywhere', async () => {
    fs.symlinkSync(path.join(h.t.outside, 'created-outside.txt'), h.real('dangle-out'));
    fs.symlinkSync('missing-inside.txt', h.real('dangle-in'));
    fs.symlinkSync(path.join(h.t.outside, 'nodir'), h.real('dangle-dir'));
    const before = outsideSnapshot();
    const listing = (await h.api(h.admin, 'GET', '/')).json();
    expect(listing.items.map((item: { name: string; type: string }) => [item.name, item.type])).toEqual([
      ['dangle-dir', 'invalid_link'],
      ['dangle-in', 'invalid_link'],
      ['dangle-out', 'invalid_link'],
    ]);
    for (const target of ['/dangle-out', '/dangle-in']) {
      expect((await h.api(h.admin, 'POST', target, { payload: 'x' })).statusCode).toBe(403);
      expect((await h.api(h.admin, 'POST', target, { query: 'override=true', payload: 'x' })).statusCode).toBe(403);
      expect((await h.api(h.admin, 'PUT', target, { payload: 'x' })).statusCode).toBe(403);
    }
    expect((await h.api(h.admin, 'POST', '/dangle-dir/x.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.api(h.admin, 'POST', '/dangle-dir/')).statusCode).toBe(403);
    expect(outsideSnapshot()).toBe(before);
    expect(h.exists('missing-inside.txt')).toBe(false);
    expect(fs.readlinkSync(h.real('dangle-in'))).toBe('missing-inside.txt');
  });
});

describe('hostile names', () => {
  const names = [
    '<script>alert(1)<script>.txt',
    '<img src=x onerror=alert(1)>.txt',
    'line\nbreak.txt',
    'quote"double\'single.txt',
    'cafe\u0301 nfd.txt',
    'caf\u00e9 nfc.txt',
    'back\\slash.txt',
    'percent%2Fencoded.txt',
    'emoji-😀.txt',
    '   spaces   ',
    '-dash.txt',
    'x'.repeat(251) + '.txt',
    'é'.repeat(127) + 'a',
  ];

  it('are created, listed with JSON escaping, renamed and deleted correctly', async () => {
    h.mkdir('h');
    for (const name of names) {
      const response = await h.api(h.admin, 'POST', `/h/${name}`, { payload: name });
      expect(response.statusCode, JSON.stringify(name)).toBe(200);
    }
    expect(namesIn(h.real('h')).sort()).toEqual([...names].sort());
    const response = await h.api(h.admin, 'GET', '/h/');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).not.toContain('\n');
    const listed = response.json().items.map((item: { name: string; path: string }) => {
      expect(item.path).toBe(`/h/${item.name}`);
      return item.name;
    });
    expect([...listed].sort()).toEqual([...names].sort());
    for (const [index, name] of names.entries()) {
      const file = (await h.api(h.admin, 'GET', `/h/${name}`)).json();
      expect(file.name).toBe(name);
      expect(file.content).toBe(name);
      const renamed = `r${index}-${name.slice(0, 100)}`;
      const destination = encodeURIComponent(encodePath(`/h/${renamed}`));
      expect((await h.api(h.admin, 'PATCH', `/h/${name}`, { query: `action=rename&destination=${destination}` })).statusCode, JSON.stringify(name)).toBe(200);
      expect(h.read(`h/${renamed}`)).toBe(name);
      expect((await h.api(h.admin, 'DELETE', `/h/${renamed}`)).statusCode).toBe(204);
    }
    expect(namesIn(h.real('h'))).toEqual([]);
  });

  it('auto-renaming a 255-byte name that cannot grow answers 400, not a crash', async () => {
    const name = 'y'.repeat(255);
    h.put(name, 'x');
    const destination = encodeURIComponent(encodePath(`/${name}`));
    expect((await h.api(h.admin, 'PATCH', `/${name}`, { query: `action=copy&destination=${destination}&rename=true` })).statusCode).toBe(400);
    expect(namesIn(h.t.root)).toEqual([name]);
  });
});

describe('names that are not valid UTF-8', () => {
  it('are skipped by listings and copies, and removed with their folder', async () => {
    const folder = h.mkdir('odd');
    h.put('odd/fine.txt', 'fine');
    fs.writeFileSync(Buffer.concat([Buffer.from(folder + '/'), Buffer.from([0x62, 0xff, 0x2e, 0x74])]), 'bad');
    const listing = await h.api(h.admin, 'GET', '/odd/');
    expect(listing.statusCode).toBe(200);
    expect(listing.json().items.map((item: { name: string }) => item.name)).toEqual(['fine.txt']);
    expect((await h.t.request(h.admin, { method: 'GET', url: '/api/resources/recursive/odd' })).json()).toHaveLength(1);
    const destination = encodeURIComponent(encodePath('/odd-copy'));
    expect((await h.api(h.admin, 'PATCH', '/odd', { query: `action=copy&destination=${destination}` })).statusCode).toBe(200);
    expect(namesIn(h.real('odd-copy'))).toEqual(['fine.txt']);
    expect((await h.api(h.admin, 'DELETE', '/odd')).statusCode).toBe(204);
    expect(h.exists('odd')).toBe(false);
  });
});
