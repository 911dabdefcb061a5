import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rule } from '@burrow/protocol';
import { tarEntries } from '../shares/shares.test-support.js';
import { SETTLE_MS } from '../shares/share-access.js';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { encodePath } from './files.test-support.js';

/**
 * What Burrow refuses, read as a list: paths with a dot segment for a user who hides dotfiles,
 * links whose target the rules deny or hide, and share links whose target was replaced behind
 * Burrow's back. Everything goes through the real HTTP API.
 */

let t: TestApp;
let admin: string;
/** A user who hides dotfiles and may not see /private or /vault/inner.txt. */
let tidy: string;

const deny = (rulePath: string): Rule => ({ regex: false, allow: false, path: rulePath, regexp: { raw: '' } });

function put(relative: string, content = 'x'): string {
  const file = path.join(t.root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

function link(relative: string, target: string): void {
  const at = path.join(t.root, relative);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

const get = (token: string, url: string) => t.request(token, { method: 'GET', url });

async function names(token: string, folder: string): Promise<string[]> {
  const response = await get(token, `/api/resources${encodePath(folder)}`);
  expect(response.statusCode, folder).toBe(200);
  return response.json().items.map((item: { name: string }) => item.name).sort();
}

async function searchPaths(token: string, query: string): Promise<string[]> {
  const response = await get(token, `/api/search/?query=${encodeURIComponent(query)}`);
  expect(response.statusCode).toBe(200);
  return response.body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { path: string }).path)
    .sort();
}

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
  put('visible.txt', 'visible');
  put('.env', 'DOT-SECRET');
  put('.config/app.txt', 'DOT-SECRET');
  put('.ssh/id_rsa', 'DOT-SECRET');
  put('.pic.png', 'DOT-SECRET');
  put('.subs/movie.srt', '1\n00:00:01,000 --> 00:00:02,000\nDOT-SECRET\n');
  put('private/secret.txt', 'RULE-SECRET');
  put('vault/inner.txt', 'RULE-SECRET');
  put('vault/open.txt', 'open');
  put('docs/readme.txt', 'readme');
  // Links with innocent names inside an allowed folder, pointing at what the user may not see.
  link('docs/key.txt', '../.ssh/id_rsa');
  link('docs/keys', '../.ssh');
  link('docs/secret-link.txt', '../private/secret.txt');
  link('docs/private-dir', '../private');
  link('docs/fine.txt', '../visible.txt');
  // A folder reached through a link: what it holds is judged where it really is.
  link('door', 'vault');
  await makeUser(t, { username: 'tidy', hideDotfiles: true, rules: [deny('/private'), deny('/vault/inner.txt')] });
  tidy = await loginAs(t, 'tidy');
});
afterEach(async () => {
  await t.close();
});

describe('hideDotfiles denies every path with a dot segment, in every operation (403, as rules do)', () => {
  const dotPaths = ['/.env', '/.config', '/.config/app.txt', '/.config/missing.txt', '/.ssh/', '/docs/.new'];

  it('refuses resource reads, checksums, writes, deletes, copies and moves', async () => {
    for (const virtual of dotPaths) {
      const url = `/api/resources${encodePath(virtual)}`;
      expect((await get(tidy, url)).statusCode, `GET ${virtual}`).toBe(403);
      expect((await get(tidy, `${url}?checksum=md5`)).statusCode, `checksum ${virtual}`).toBe(403);
      expect((await t.request(tidy, { method: 'GET', url, headers: { 'x-encoding': 'true' } })).statusCode, `raw text ${virtual}`).toBe(403);
      expect((await t.request(tidy, { method: 'PUT', url, payload: 'pwned' })).statusCode, `PUT ${virtual}`).toBe(403);
      expect((await t.request(tidy, { method: 'POST', url: `${url}?override=true`, payload: 'pwned' })).statusCode, `POST ${virtual}`).toBe(403);
      expect((await t.request(tidy, { method: 'DELETE', url })).statusCode, `DELETE ${virtual}`).toBe(403);
      expect((await get(tidy, `/api/resources/recursive${encodePath(virtual)}`)).statusCode, `recursive ${virtual}`).toBe(403);
    }
    expect((await t.request(tidy, { method: 'POST', url: '/api/resources/.newdir/' })).statusCode).toBe(403);
    expect((await t.request(tidy, { method: 'POST', url: '/api/resources/docs/.git/config', payload: 'x' })).statusCode).toBe(403);
    const patch = (from: string, to: string, action: string) =>
      t.request(tidy, { method: 'PATCH', url: `/api/resources${encodePath(from)}?action=${action}&destination=${encodeURIComponent(encodeURIComponent(to))}` });
    for (const action of ['copy', 'rename']) {
      expect((await patch('/visible.txt', '/.visible.txt', action)).statusCode, `${action} to a dotfile`).toBe(403);
      expect((await patch('/visible.txt', '/.config/visible.txt', action)).statusCode, `${action} into a dot folder`).toBe(403);
      expect((await patch('/.env', '/env.txt', action)).statusCode, `${action} a dotfile out`).toBe(403);
      expect((await patch('/.config/app.txt', '/app.txt', action)).statusCode, `${action} out of a dot folder`).toBe(403);
    }
    // Nothing was read, written, moved or removed.
    expect(fs.readFileSync(path.join(t.root, '.env'), 'utf8')).toBe('DOT-SECRET');
    expect(fs.readFileSync(path.join(t.root, '.config', 'app.txt'), 'utf8')).toBe('DOT-SECRET');
    for (const made of ['.visible.txt', '.config/visible.txt', 'env.txt', 'app.txt', 'docs/.new', 'docs/.git', '.newdir']) {
      expect(fs.existsSync(path.join(t.root, made)), made).toBe(false);
    }
    // The same requests from a user who shows dotfiles work: the refusal is the setting's.
    expect((await get(admin, '/api/resources/.config/app.txt')).statusCode).toBe(200);
  });

  it('refuses raw downloads, archives, previews, subtitles and usage', async () => {
    for (const url of [
      '/api/raw/.env',
      '/api/raw/.env?inline=true',
      '/api/raw/.config/app.txt',
      '/api/raw/.config?algo=tar',
      '/api/raw/.config/',
      '/api/preview/thumb/.pic.png',
      '/api/preview/big/.config/app.txt',
      '/api/subtitle/.subs/movie.srt',
      '/api/usage/.config',
      '/api/usage/.config/app.txt',
    ]) {
      const response = await get(tidy, url);
      expect(response.statusCode, url).toBe(403);
      expect(response.body, url).not.toContain('DOT-SECRET');
    }
    // A files= selection of only hidden entries is refused; mixed with a visible one, they are left out.
    const only = encodeURIComponent(['/.env', '/.config/app.txt'].map(encodeURIComponent).join(','));
    expect((await get(tidy, `/api/raw/?files=${only}&algo=tar`)).statusCode).toBe(403);
    const mixed = encodeURIComponent(['/.env', '/visible.txt'].map(encodeURIComponent).join(','));
    const archive = await tarEntries((await get(tidy, `/api/raw/?files=${mixed}&algo=tar`)).rawPayload);
    expect([...archive.keys()]).toEqual(['visible.txt']);
  });

  it('refuses tus uploads to a dot path, at creation and for chunks', async () => {
    for (const url of ['/api/tus/.env?override=true', '/api/tus/.config/new.txt?override=false', '/api/tus/docs/.new?override=false']) {
      const created = await t.request(tidy, { method: 'POST', url, headers: { 'upload-length': '5' } });
      expect(created.statusCode, `POST ${url}`).toBe(403);
      const chunk = await t.request(tidy, {
        method: 'PATCH',
        url,
        headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        payload: 'pwned',
      });
      expect(chunk.statusCode, `PATCH ${url}`).toBe(403);
      expect((await t.request(tidy, { method: 'HEAD', url })).statusCode, `HEAD ${url}`).toBe(403);
    }
    expect(fs.readFileSync(path.join(t.root, '.env'), 'utf8')).toBe('DOT-SECRET');
    expect(fs.existsSync(path.join(t.root, 'docs', '.new'))).toBe(false);
  });

  it('leaves dot entries and everything below them out of listings, search and archives', async () => {
    expect(await names(tidy, '/')).toEqual(['docs', 'door', 'vault', 'visible.txt']);
    const recursive = (await get(tidy, '/api/resources/recursive/')).json().map((item: { path: string }) => item.path);
    expect(recursive.filter((entry: string) => entry.includes('/.'))).toEqual([]);
    expect(await searchPaths(tidy, 'app')).toEqual([]);
    expect(await searchPaths(tidy, 'movie')).toEqual([]);
    const archive = await tarEntries((await get(tidy, '/api/raw/?algo=tar')).rawPayload);
    expect([...archive.keys()].filter((name) => name.split('/').some((segment) => segment.startsWith('.')))).toEqual([]);
    for (const content of archive.values()) expect(content).not.toContain('DOT-SECRET');
    // The admin, who shows dotfiles, still finds them.
    expect(await searchPaths(admin, 'app')).toEqual(['.config/app.txt']);
  });

  it('refuses sharing a dot path, and public links serve none of the owner’s dot entries', async () => {
    expect((await t.request(tidy, { method: 'POST', url: '/api/share/.config/', payload: {} })).statusCode).toBe(403);
    expect((await t.request(tidy, { method: 'POST', url: '/api/share/.env', payload: {} })).statusCode).toBe(403);
    put('shared/.env', 'DOT-SECRET');
    put('shared/ok.txt', 'ok');
    const link = (await t.request(tidy, { method: 'POST', url: '/api/share/shared/', payload: {} })).json();
    expect((await get('', `/api/public/share/${link.hash}`)).json().items.map((item: { name: string }) => item.name)).toEqual(['ok.txt']);
    for (const url of [`/api/public/share/${link.hash}/.env`, `/api/public/dl/${link.hash}/.env`, `/api/public/dl/${link.hash}/.env?inline=true`]) {
      const response = await get('', url);
      expect(response.statusCode, url).toBe(403);
      expect(response.body).not.toContain('DOT-SECRET');
    }
    // A link made while the owner showed dotfiles stops once they hide them.
    const before = (await t.request(admin, { method: 'POST', url: '/api/share/.config/', payload: {} })).json();
    expect((await get('', `/api/public/share/${before.hash}`)).statusCode).toBe(200);
    const adminRecord = (await t.app.services.usersRepository.findById(1))!;
    await t.app.services.usersRepository.update(adminRecord.id, { ...adminRecord, hideDotfiles: true });
    expect((await get('', `/api/public/share/${before.hash}`)).statusCode).toBe(403);
    expect((await get('', `/api/public/dl/${before.hash}/app.txt`)).statusCode).toBe(403);
  });
});

describe('links are judged by where they lead: a denied or hidden target is refused and left out', () => {
  const deniedLinks = ['/docs/key.txt', '/docs/keys', '/docs/keys/id_rsa', '/docs/secret-link.txt', '/docs/private-dir', '/docs/private-dir/secret.txt', '/door/inner.txt'];

  it('leaves such links out of listings, recursive listings and search, without the target’s size or time', async () => {
    expect(await names(tidy, '/docs')).toEqual(['fine.txt', 'readme.txt']);
    expect(await names(tidy, '/door')).toEqual(['open.txt']);
    const recursive = (await get(tidy, '/api/resources/recursive/docs')).json().map((item: { path: string }) => item.path).sort();
    expect(recursive).toEqual(['/docs/fine.txt', '/docs/readme.txt']);
    expect(await searchPaths(tidy, 'key')).toEqual([]);
    expect(await searchPaths(tidy, 'secret')).toEqual([]);
    expect(await searchPaths(tidy, 'private')).toEqual([]);
    // Unrestricted users see them all, followed.
    expect(await names(admin, '/docs')).toEqual(['fine.txt', 'key.txt', 'keys', 'private-dir', 'readme.txt', 'secret-link.txt']);
  });

  it('refuses to follow them for info, content, raw, preview, archives and shares', async () => {
    for (const virtual of deniedLinks) {
      for (const url of [
        `/api/resources${encodePath(virtual)}`,
        `/api/resources${encodePath(virtual)}?checksum=sha256`,
        `/api/raw${encodePath(virtual)}`,
        `/api/raw${encodePath(virtual)}?inline=true`,
        `/api/preview/big${encodePath(virtual)}`,
        `/api/usage${encodePath(virtual)}`,
      ]) {
        const response = await get(tidy, url);
        expect(response.statusCode, url).toBe(403);
        expect(response.body, url).not.toMatch(/SECRET/);
      }
      expect((await t.request(tidy, { method: 'POST', url: `/api/share${encodePath(virtual)}`, payload: {} })).statusCode, `share ${virtual}`).toBe(403);
      // Writing through the link is refused as well, and the target is untouched.
      expect((await t.request(tidy, { method: 'PUT', url: `/api/resources${encodePath(virtual)}`, payload: 'pwned' })).statusCode, `PUT ${virtual}`).toBe(403);
    }
    const copy = await t.request(tidy, {
      method: 'PATCH',
      url: `/api/resources/docs/key.txt?action=copy&destination=${encodeURIComponent(encodeURIComponent('/stolen.txt'))}`,
    });
    expect(copy.statusCode).toBe(403);
    expect(fs.existsSync(path.join(t.root, 'stolen.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(t.root, '.ssh', 'id_rsa'), 'utf8')).toBe('DOT-SECRET');
    // Archives of the folder holding them leave them out.
    const archive = await tarEntries((await get(tidy, '/api/raw/docs?algo=tar')).rawPayload);
    expect([...archive.keys()].sort()).toEqual(['fine.txt', 'readme.txt']);
    for (const content of archive.values()) expect(content).not.toMatch(/SECRET/);
    // A link to an allowed file still works.
    expect((await get(tidy, '/api/raw/docs/fine.txt')).body).toBe('visible');
  });

  it('judges what a folder reached through a link holds where it really is, in archives too', async () => {
    for (const url of ['/api/raw/door?algo=tar', `/api/raw/?files=${encodeURIComponent(encodeURIComponent('/door'))}&algo=tar`]) {
      const archive = await tarEntries((await get(tidy, url)).rawPayload);
      expect([...archive.keys()].filter((name) => !name.endsWith('/')).map((name) => name.split('/').pop()), url).toEqual(['open.txt']);
      for (const content of archive.values()) expect(content).not.toMatch(/SECRET/);
    }
    link('links/door-link', '../door');
    const nested = await tarEntries((await get(tidy, '/api/raw/links?algo=tar')).rawPayload);
    expect([...nested.keys()].sort()).toEqual(['door-link/', 'door-link/open.txt']);
    expect((await get(tidy, '/api/raw/door/inner.txt')).statusCode).toBe(403);
  });

  it('keeps them out of public links of the folder holding them', async () => {
    const link = (await t.request(tidy, { method: 'POST', url: '/api/share/docs/', payload: {} })).json();
    // fine.txt leads out of the shared folder, so it is left out too (confinement, not rules).
    const listing = (await get('', `/api/public/share/${link.hash}`)).json();
    expect(listing.items.map((item: { name: string }) => item.name).sort()).toEqual(['readme.txt']);
    for (const sub of ['/key.txt', '/keys/id_rsa', '/secret-link.txt', '/private-dir/secret.txt']) {
      for (const prefix of ['/api/public/share/', '/api/public/dl/']) {
        const response = await get('', `${prefix}${link.hash}${sub}`);
        expect(response.statusCode, `${prefix}${sub}`).toBe(403);
        expect(response.body).not.toMatch(/SECRET/);
      }
    }
    const archive = await tarEntries((await get('', `/api/public/dl/${link.hash}?algo=tar`)).rawPayload);
    expect([...archive.keys()].sort()).toEqual(['readme.txt']);
  });
});

describe('a share link never serves an item that replaced its target behind Burrow’s back', () => {
  const visit = (url: string) => t.request(undefined, { method: 'GET', url });

  it('retires file and folder links whose target was deleted and made again, or swapped in by a rename', async () => {
    put('shared/report.txt', 'original');
    put('shared/folder/inside.txt', 'original');
    const file = (await t.request(admin, { method: 'POST', url: '/api/share/shared/report.txt', payload: {} })).json();
    const folder = (await t.request(admin, { method: 'POST', url: '/api/share/shared/folder/', payload: {} })).json();
    put('swap.tmp', 'REPLACED');
    fs.renameSync(path.join(t.root, 'swap.tmp'), path.join(t.root, 'shared', 'report.txt'));
    fs.rmSync(path.join(t.root, 'shared', 'folder'), { recursive: true });
    put('shared/folder/inside.txt', 'REPLACED');
    for (const url of [
      `/api/public/share/${file.hash}`,
      `/api/public/dl/${file.hash}`,
      `/api/public/dl/${file.hash}?inline=true`,
      `/api/public/share/${folder.hash}`,
      `/api/public/dl/${folder.hash}/inside.txt`,
      `/api/public/dl/${folder.hash}?algo=tar`,
    ]) {
      const response = await visit(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('REPLACED');
    }
    // Retired for good once the new items have settled: the records are gone.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 100));
    expect((await visit(`/api/public/dl/${file.hash}`)).statusCode).toBe(404);
    expect((await visit(`/api/public/share/${folder.hash}`)).statusCode).toBe(404);
    expect(await t.app.services.db.selectFrom('shares').selectAll().execute()).toEqual([]);
  });

  it('retires a link whose file was deleted and written again, even when the inode number is reused', async () => {
    put('notes.txt', 'original');
    const link = (await t.request(admin, { method: 'POST', url: '/api/share/notes.txt', payload: {} })).json();
    fs.rmSync(path.join(t.root, 'notes.txt'));
    put('notes.txt', 'REPLACED');
    expect((await visit(`/api/public/dl/${link.hash}`)).statusCode).toBe(404);
  });
});
