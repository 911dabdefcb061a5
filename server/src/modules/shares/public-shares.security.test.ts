import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../../test-support/app.js';
import { copyFixture } from '../downloads/test-fixtures.js';
import { createShareHarness, passwordHeader, type ShareHarness } from './shares.test-support.js';

let h: ShareHarness;

beforeEach(async () => {
  h = await createShareHarness();
  h.put('docs/readme.txt', 'read me');
  h.put('docs/sub/deep.txt', 'deep');
  h.put('docs/clip.srt', '1\n00:00:01,000 --> 00:00:02,000\nhello\n');
  h.put('single.txt', 'single');
  copyFixture(h.t.root, 'media/photo.jpg', '/docs/photo.jpg');
});
afterEach(async () => {
  await h.close();
});

/** Every public endpoint a visitor can reach for a folder link, by name. */
function publicUrls(hash: string): Record<string, string> {
  return {
    listing: `/api/public/share/${hash}`,
    subListing: `/api/public/share/${hash}/sub`,
    fileInfo: `/api/public/share/${hash}/readme.txt`,
    download: `/api/public/dl/${hash}/readme.txt`,
    inline: `/api/public/dl/${hash}/readme.txt?inline=true`,
    archive: `/api/public/dl/${hash}?algo=tar`,
    selection: `/api/public/dl/${hash}/?files=${encodeURIComponent(encodeURIComponent('/readme.txt'))}`,
    thumbnail: `/api/public/preview/thumb/${hash}/photo.jpg`,
    preview: `/api/public/preview/big/${hash}/photo.jpg`,
    subtitle: `/api/public/subtitle/${hash}/clip.srt`,
  };
}

function withToken(url: string, token: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

describe('password-protected links', () => {
  it('demand the password or token on every public endpoint', async () => {
    const link = await h.share(h.admin, '/docs/', { password: 'correct horse' });
    const [row] = await h.rows();
    const wrongToken = row!.token.slice(0, -2) + (row!.token.endsWith('AA') ? 'BB' : 'AA');
    for (const [name, url] of Object.entries(publicUrls(link.hash))) {
      expect((await h.visit(url)).statusCode, `${name} without credentials`).toBe(401);
      expect((await h.visit(url, { headers: { 'x-share-password': '' } })).statusCode, `${name} empty password`).toBe(401);
      expect((await h.visit(withToken(url, wrongToken))).statusCode, `${name} wrong token`).toBe(401);
      expect((await h.visit(withToken(url, ''))).statusCode, `${name} empty token`).toBe(401);
      expect((await h.visit(url, { headers: passwordHeader('wrong horse'), remoteAddress: `10.1.0.${name.length}` })).statusCode, `${name} wrong password`).toBe(401);
      expect((await h.visit(withToken(url, row!.token))).statusCode, `${name} with token`).toBe(200);
      expect((await h.visit(url, { headers: passwordHeader('correct horse'), remoteAddress: '10.2.0.1' })).statusCode, `${name} with password`).toBe(200);
    }
    // A file link is guarded the same way.
    const fileLink = await h.share(h.admin, '/single.txt', { password: 'correct horse' });
    for (const url of [
      `/api/public/share/${fileLink.hash}`,
      `/api/public/dl/${fileLink.hash}`,
      `/api/public/dl/${fileLink.hash}?inline=true`,
      `/api/public/preview/thumb/${fileLink.hash}`,
      `/api/public/preview/nonsense/${fileLink.hash}`,
      `/api/public/subtitle/${fileLink.hash}`,
    ]) {
      expect((await h.visit(url)).statusCode, url).toBe(401);
      // The folder link's token is no key to another link.
      expect((await h.visit(withToken(url, row!.token))).statusCode, url).toBe(401);
    }
  });

  it('tell a 401 body apart from content and never send the token without proof', async () => {
    const link = await h.share(h.admin, '/docs/', { password: 'correct horse' });
    const [row] = await h.rows();
    const refused = await h.visit(`/api/public/share/${link.hash}`, { headers: passwordHeader('nope') });
    expect(refused.body).toBe('401 Unauthorized\n');
    expect(refused.body).not.toContain(row!.token);
  });

  it('rate-limit wrong passwords per (link, client) and per client with 429 and Retry-After', async () => {
    const link = await h.share(h.admin, '/docs/', { password: 'correct horse' });
    const url = `/api/public/share/${link.hash}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await h.visit(url, { headers: passwordHeader(`guess-${attempt}`), remoteAddress: '10.9.9.9' })).statusCode);
    }
    expect(statuses).toEqual(Array(5).fill(401));
    const limited = await h.visit(url, { headers: passwordHeader('correct horse'), remoteAddress: '10.9.9.9' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The limit applies on the download endpoint as well.
    expect((await h.visit(`/api/public/dl/${link.hash}/readme.txt`, { headers: passwordHeader('correct horse'), remoteAddress: '10.9.9.9' })).statusCode).toBe(429);
    // Another address is unaffected.
    expect((await h.visit(url, { headers: passwordHeader('correct horse'), remoteAddress: '10.9.9.10' })).statusCode).toBe(200);
    // Twenty wrong passwords from one address, whatever the links, stop it on every link.
    for (const name of ['a', 'b', 'c']) {
      h.put(`${name}.txt`, name);
      const other = await h.share(h.admin, `/${name}.txt`, { password: 'other words' });
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await h.visit(`/api/public/share/${other.hash}`, { headers: passwordHeader(`guess-${attempt}`), remoteAddress: '10.9.9.9' })).statusCode).toBe(401);
      }
    }
    const last = await h.share(h.admin, '/single.txt', { password: 'other words' });
    expect((await h.visit(`/api/public/share/${last.hash}`, { headers: passwordHeader('other words'), remoteAddress: '10.9.9.9' })).statusCode).toBe(429);
  });

  it('slow a link down under guessing from many addresses instead of locking it, while proven tokens keep working', async () => {
    const link = await h.share(h.admin, '/docs/', { password: 'correct horse' });
    const [row] = await h.rows();
    const url = `/api/public/share/${link.hash}`;
    for (let attempt = 0; attempt < 21; attempt++) {
      const response = await h.visit(url, { headers: passwordHeader(`guess-${attempt}`), remoteAddress: `10.3.${attempt}.1` });
      expect(response.statusCode).toBe(401);
    }
    // The checks are now spaced out: an address that already failed here is told when to retry…
    const again = await h.visit(url, { headers: passwordHeader('guess-again'), remoteAddress: '10.3.0.1' });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    // …while one that has not failed waits for its turn and gets in with the right password.
    const started = Date.now();
    const fresh = await h.visit(url, { headers: passwordHeader('correct horse'), remoteAddress: '10.4.0.1' });
    expect(fresh.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(500);
    // A visitor who already holds the token is not slowed down by someone else's guessing.
    const token = Date.now();
    expect((await h.visit(`${url}?token=${encodeURIComponent(row!.token)}`, { remoteAddress: '10.4.0.2' })).statusCode).toBe(200);
    expect(Date.now() - token).toBeLessThan(500);
    // Other links are not affected.
    const other = await h.share(h.admin, '/single.txt', { password: 'other words' });
    expect((await h.visit(`/api/public/share/${other.hash}`, { headers: passwordHeader('other words'), remoteAddress: '10.4.0.3' })).statusCode).toBe(200);
  });
});

describe('secrets never leave', () => {
  it('keeps hash-of-password and token out of every API answer, and the token out of open listings', async () => {
    await h.share(h.admin, '/docs/', { password: 'correct horse' });
    const open = await h.share(h.admin, '/single.txt');
    const [secret] = (await h.rows()).filter((row) => row.password_hash);
    const bodies = [
      (await h.t.request(h.admin, { method: 'GET', url: '/api/shares' })).body,
      (await h.t.request(h.admin, { method: 'GET', url: '/api/share/docs/' })).body,
      (await h.t.request(h.admin, { method: 'POST', url: '/api/share/docs/', payload: { password: 'x' } })).body,
      (await h.visit(`/api/public/share/${open.hash}`)).body,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(secret!.token);
      expect(body).not.toContain(secret!.password_hash);
      expect(body).not.toContain('$argon2');
      expect(body).not.toContain('"token"');
    }
  });
});

describe('links die with their target, owner or permissions', () => {
  it('expires: a 1-second link works, then answers 404 and is purged', async () => {
    const link = await h.share(h.admin, '/docs/', { expires: '1', unit: 'seconds' });
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(200);
    const waitMs = link.expire * 1000 - Date.now() + 50;
    expect(waitMs).toBeLessThanOrEqual(2100);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs)));
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/dl/${link.hash}/readme.txt`)).statusCode).toBe(404);
    expect(await h.rows()).toHaveLength(0);
  });

  it('dies when its target or an ancestor is deleted, whoever deletes it', async () => {
    const bob = await h.user('bob', { scope: '/users/bob' });
    h.put('users/bob/docs/sub/deep.txt', 'deep');
    h.put('users/bob/docs/readme.txt', 'read me');
    const folder = await h.share(bob.token, '/docs/sub/');
    const viaAncestor = await h.share(bob.token, '/docs/readme.txt');
    const keep = await h.share(h.admin, '/single.txt');
    // The admin deletes bob's folder through the admin's own scope.
    const deleted = await h.t.request(h.admin, { method: 'DELETE', url: '/api/resources/users/bob/docs' });
    expect(deleted.statusCode).toBe(204);
    expect((await h.rows()).map((row) => row.hash)).toEqual([keep.hash]);
    // Recreating the same paths does not revive the links.
    h.put('users/bob/docs/sub/deep.txt', 'new deep');
    h.put('users/bob/docs/readme.txt', 'new read me');
    expect((await h.visit(`/api/public/share/${folder.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/dl/${viaAncestor.hash}`)).statusCode).toBe(404);
  });

  it('dies with its owner’s whole home folder, which stays deleted', async () => {
    const bob = await h.user('bob', { scope: '/users/bob' });
    h.put('users/bob/docs/readme.txt', 'read me');
    await h.share(bob.token, '/docs/');
    await h.share(bob.token, '/');
    const deleted = await h.t.request(h.admin, { method: 'DELETE', url: '/api/resources/users/bob' });
    expect(deleted.statusCode).toBe(204);
    expect(await h.rows()).toHaveLength(0);
    expect(fs.existsSync(path.join(h.t.root, 'users', 'bob'))).toBe(false);
  });

  it('dies when its target vanishes from disk behind Burrow’s back (checked at access time)', async () => {
    const link = await h.share(h.admin, '/single.txt');
    const folder = await h.share(h.admin, '/docs/sub/');
    fs.rmSync(path.join(h.t.root, 'single.txt'));
    fs.rmSync(path.join(h.t.root, 'docs', 'sub'), { recursive: true });
    expect((await h.visit(`/api/public/dl/${link.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/share/${folder.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/dl/${folder.hash}?algo=tar`)).statusCode).toBe(404);
  });

  it('does not revive when a folder replaces a shared file at the same path', async () => {
    const link = await h.share(h.admin, '/single.txt');
    fs.rmSync(path.join(h.t.root, 'single.txt'));
    fs.mkdirSync(path.join(h.t.root, 'single.txt'));
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(404);
  });

  it('dies when its target or an ancestor is moved, whoever moves it', async () => {
    const bob = await h.user('bob', { scope: '/users/bob' });
    h.put('users/bob/project/notes/todo.txt', 'todo');
    const own = await h.share(bob.token, '/project/notes/');
    const file = await h.share(bob.token, '/project/notes/todo.txt');
    const destination = encodeURIComponent('/users/bob/renamed');
    const moved = await h.t.request(h.admin, { method: 'PATCH', url: `/api/resources/users/bob/project?action=rename&destination=${destination}` });
    expect(moved.statusCode).toBe(200);
    expect(await h.rows()).toHaveLength(0);
    // Moving it back to the old place does not revive the links.
    const back = await h.t.request(bob.token, { method: 'PATCH', url: `/api/resources/renamed?action=rename&destination=${encodeURIComponent('/project')}` });
    expect(back.statusCode).toBe(200);
    expect((await h.visit(`/api/public/share/${own.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/dl/${file.hash}`)).statusCode).toBe(404);
  });

  it('dies on move events reported in real paths, even when the move came from another scope', async () => {
    const bob = await h.user('bob', { scope: '/users/bob' });
    h.put('users/bob/project/notes/todo.txt', 'todo');
    await h.share(bob.token, '/project/notes/');
    const admin = (await h.t.app.services.usersRepository.findById(1))!;
    const from = path.join(h.t.root, 'users', 'bob', 'project');
    const to = path.join(h.t.root, 'users', 'bob', 'renamed');
    fs.renameSync(from, to);
    await h.t.app.services.fileEvents.emit({ kind: 'moved', user: admin, fromReal: from, toReal: to, fromVirtual: '/users/bob/project', toVirtual: '/users/bob/renamed', isDir: true });
    expect(await h.rows()).toHaveLength(0);
  });

  it('ignores moves and deletions of sibling paths that only share a prefix', async () => {
    h.put('docs-old/x.txt', 'x');
    const link = await h.share(h.admin, '/docs/');
    const admin = (await h.t.app.services.usersRepository.findById(1))!;
    const real = path.join(h.t.root, 'docs-old');
    fs.rmSync(real, { recursive: true });
    await h.t.app.services.fileEvents.emit({ kind: 'deleted', user: admin, real, virtual: '/docs-old', isDir: true });
    await h.t.app.services.fileEvents.emit({ kind: 'deleted', user: admin, real: path.join(h.t.root, 'doc'), virtual: '/doc', isDir: false });
    expect((await h.rows()).map((row) => row.hash)).toEqual([link.hash]);
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(200);
  });

  it('answers 403 once the owner loses share or download, and works again when restored', async () => {
    const bob = await h.user('bob');
    const link = await h.share(bob.token, '/docs/');
    const urls = Object.values(publicUrls(link.hash));
    const { usersRepository } = h.t.app.services;
    const setPerm = async (perm: { share: boolean; download: boolean }) => {
      const { id, tokensValidAfter: _t, updatedAt: _u, createdAt: _c, ...rest } = (await usersRepository.findById(bob.record.id))!;
      await usersRepository.update(id, { ...rest, perm: { ...rest.perm, ...perm } });
    };
    for (const perm of [{ share: false, download: true }, { share: true, download: false }, { share: false, download: false }]) {
      await setPerm(perm);
      for (const url of urls) expect((await h.visit(url)).statusCode, `${JSON.stringify(perm)} ${url}`).toBe(403);
    }
    await setPerm({ share: true, download: true });
    for (const url of urls) expect((await h.visit(url)).statusCode, url).toBe(200);
  });

  it('checks the password before the owner’s permissions (401 before 403)', async () => {
    const bob = await h.user('bob');
    const link = await h.share(bob.token, '/docs/', { password: 'correct horse' });
    const admin = (await h.t.app.services.usersRepository.findById(1))!;
    await h.t.app.services.users.update(admin, bob.record.id, { what: 'user', which: ['perm'], data: { perm: { ...bob.record.perm, share: false } } }, { trusted: true });
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(401);
    expect((await h.visit(`/api/public/share/${link.hash}`, { headers: passwordHeader('correct horse') })).statusCode).toBe(403);
  });

  it('dies with its owner: deleting the user removes the links and they answer 404', async () => {
    const bob = await h.user('bob');
    const link = await h.share(bob.token, '/docs/');
    const adminLink = await h.share(h.admin, '/docs/');
    const deleted = await h.t.request(h.admin, { method: 'DELETE', url: `/api/users/${bob.record.id}`, payload: { current_password: ADMIN_PASSWORD } });
    expect(deleted.statusCode).toBe(200);
    expect((await h.rows()).map((row) => row.hash)).toEqual([adminLink.hash]);
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/dl/${link.hash}/readme.txt`)).statusCode).toBe(404);
  });
});
