import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesHarness, encodePath, namesIn, type FilesHarness } from './files.test-support.js';

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
