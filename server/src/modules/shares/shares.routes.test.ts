import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MaxShareDuration } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

let t: TestApp;
let admin: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
  fs.mkdirSync(path.join(t.root, 'docs', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(t.root, 'docs', 'report.pdf'), 'pdf bytes');
  fs.writeFileSync(path.join(t.root, 'notes.txt'), 'hello');
});
afterEach(async () => {
  await t.close();
});

async function createShare(token: string, url: string, body: unknown = {}) {
  return t.request(token, { method: 'POST', url, payload: body as object });
}

async function shareRows() {
  return t.app.services.db.selectFrom('shares').selectAll().execute();
}

const LINK_KEYS = ['expire', 'hash', 'hasPassword', 'path', 'userID'].sort();

describe('POST /api/share/{path}', () => {
  it('creates a permanent link for a file with an unguessable 22-character hash', async () => {
    const response = await createShare(admin, '/api/share/notes.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const link = response.json();
    expect(Object.keys(link).sort()).toEqual(LINK_KEYS);
    expect(link).toMatchObject({ path: '/notes.txt', userID: 1, expire: 0, hasPassword: false });
    expect(link.hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(link.hash, 'base64url')).toHaveLength(16);
  });

  it('keeps the trailing slash for folders, adds it when missing, and never adds one to files', async () => {
    expect((await createShare(admin, '/api/share/docs/')).json().path).toBe('/docs/');
    expect((await createShare(admin, '/api/share/docs')).json().path).toBe('/docs/');
    expect((await createShare(admin, '/api/share/docs/./sub/../report.pdf')).json().path).toBe('/docs/report.pdf');
    expect((await createShare(admin, '/api/share/')).json().path).toBe('/');
  });

  it('stores the path canonically from encoded input', async () => {
    fs.writeFileSync(path.join(t.root, 'docs', 'a b#c.txt'), 'x');
    const link = (await createShare(admin, `/api/share/docs/${encodeURIComponent('a b#c.txt')}`)).json();
    expect(link.path).toBe('/docs/a b#c.txt');
  });

  it('refuses missing targets with 404 and rule-denied targets with 403', async () => {
    expect((await createShare(admin, '/api/share/nope.txt')).statusCode).toBe(404);
    await makeUser(t, { username: 'bob', rules: [{ regex: false, allow: false, path: '/docs', regexp: { raw: '' } }] });
    const bob = await loginAs(t, 'bob');
    expect((await createShare(bob, '/api/share/docs/report.pdf')).statusCode).toBe(403);
    expect((await createShare(bob, '/api/share/notes.txt')).statusCode).toBe(200);
  });

  it('cannot reach outside the scope through .. or an escaping symlink', async () => {
    await makeUser(t, { username: 'bob', scope: '/users/bob' });
    fs.writeFileSync(path.join(t.root, 'users', 'bob', 'mine.txt'), 'x');
    fs.symlinkSync(t.outside, path.join(t.root, 'users', 'bob', 'escape'));
    fs.writeFileSync(path.join(t.outside, 'secret.txt'), 'secret');
    const bob = await loginAs(t, 'bob');
    const climbed = await createShare(bob, '/api/share/..%2F..%2Fnotes.txt');
    expect(climbed.statusCode).toBe(404);
    expect((await createShare(bob, '/api/share/escape/secret.txt')).statusCode).toBe(403);
    expect((await createShare(bob, '/api/share/escape')).statusCode).toBe(403);
    expect(await shareRows()).toHaveLength(0);
  });

  it('needs a JSON body: empty is 400, {} is fine, and a text/plain body is read as JSON', async () => {
    const empty = await t.request(admin, { method: 'POST', url: '/api/share/notes.txt' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toMatch(/^400 Bad Request \(/);
    const emptyJson = await t.request(admin, { method: 'POST', url: '/api/share/notes.txt', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(emptyJson.statusCode).toBe(400);
    const malformed = await t.request(admin, { method: 'POST', url: '/api/share/notes.txt', headers: { 'content-type': 'text/plain;charset=UTF-8' }, payload: '{"expires":' });
    expect(malformed.statusCode).toBe(400);
    const notObject = await t.request(admin, { method: 'POST', url: '/api/share/notes.txt', payload: '[1]', headers: { 'content-type': 'application/json' } });
    expect(notObject.statusCode).toBe(400);
    expect((await createShare(admin, '/api/share/notes.txt', {})).statusCode).toBe(200);
    // The filebrowser client sends its JSON as a plain string body.
    const text = await t.request(admin, {
      method: 'POST',
      url: '/api/share/notes.txt?expires=2&unit=days',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ password: '', expires: '2', unit: 'days' }),
    });
    expect(text.statusCode).toBe(200);
    const now = Date.now() / 1000;
    expect(text.json().expire).toBeGreaterThanOrEqual(Math.floor(now) + 2 * 86400);
    expect(text.json().expire).toBeLessThanOrEqual(Math.ceil(now) + 2 * 86400 + 1);
    expect(await shareRows()).toHaveLength(2);
  });

  it('computes expiry from expires and unit; unknown units mean hours; empty and 0 are permanent', async () => {
    const cases: Array<[unknown, unknown, number]> = [
      ['24', 'hours', 24 * 3600],
      [30, 'seconds', 30],
      ['5', 'minutes', 300],
      ['3', 'days', 3 * 86400],
      ['2', 'weeks', 2 * 3600],
      [7, undefined, 7 * 3600],
      ['', 'days', 0],
      ['0', 'days', 0],
      [0, 'seconds', 0],
      [String(MaxShareDuration), 'seconds', MaxShareDuration],
    ];
    for (const [expires, unit, seconds] of cases) {
      const before = Date.now() / 1000;
      const response = await createShare(admin, '/api/share/notes.txt', { expires, unit });
      expect(response.statusCode, `${String(expires)} ${String(unit)}`).toBe(200);
      const expire = response.json().expire;
      if (seconds === 0) expect(expire).toBe(0);
      else {
        expect(expire).toBeGreaterThanOrEqual(Math.floor(before) + seconds);
        expect(expire).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + seconds + 1);
      }
    }
  });

  it('refuses non-numeric and out-of-range durations with 400', async () => {
    for (const expires of ['abc', '-1', -1, '1.5', 1.5, String(MaxShareDuration + 1), MaxShareDuration + 1, '1e3', true, { n: 1 }]) {
      const response = await createShare(admin, '/api/share/notes.txt', { expires, unit: 'seconds' });
      expect(response.statusCode, JSON.stringify(expires)).toBe(400);
    }
    expect(await shareRows()).toHaveLength(0);
  });

  it('stores the password argon2id-hashed with a 256-bit token, and reveals neither', async () => {
    const response = await createShare(admin, '/api/share/docs/', { password: 'open sesame', expires: '1', unit: 'days' });
    expect(response.statusCode).toBe(200);
    const link = response.json();
    expect(Object.keys(link).sort()).toEqual(LINK_KEYS);
    expect(link.hasPassword).toBe(true);
    const [row] = await shareRows();
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(Buffer.from(row!.token, 'base64url').length).toBeGreaterThanOrEqual(32);
    for (const body of [
      response.body,
      (await t.request(admin, { method: 'GET', url: '/api/shares' })).body,
      (await t.request(admin, { method: 'GET', url: '/api/share/docs/' })).body,
    ]) {
      expect(body).toContain(link.hash);
      expect(body).not.toContain(row!.token);
      expect(body).not.toContain(row!.password_hash);
      expect(body).not.toContain('$argon2');
      expect(body).not.toContain('open sesame');
      expect(body).not.toMatch(/"token"|"password"/);
    }
  });

  it('rejects over-long passwords and non-string fields with 400', async () => {
    expect((await createShare(admin, '/api/share/notes.txt', { password: 'x'.repeat(1025) })).statusCode).toBe(400);
    expect((await createShare(admin, '/api/share/notes.txt', { password: 42 })).statusCode).toBe(400);
    expect((await createShare(admin, '/api/share/notes.txt', { unit: 3 })).statusCode).toBe(400);
  });
});

describe('permissions', () => {
  it('every share endpoint needs both share and download', async () => {
    for (const perm of [{ share: false }, { download: false }, { share: false, download: false }]) {
      const username = `u${Object.keys(perm).join('')}${Object.values(perm).length}`;
      await makeUser(t, { username, perm });
      const token = await loginAs(t, username);
      expect((await t.request(token, { method: 'GET', url: '/api/shares' })).statusCode).toBe(403);
      expect((await t.request(token, { method: 'GET', url: '/api/share/notes.txt' })).statusCode).toBe(403);
      expect((await createShare(token, '/api/share/notes.txt')).statusCode).toBe(403);
      expect((await t.request(token, { method: 'DELETE', url: '/api/share/whatever' })).statusCode).toBe(403);
    }
    expect(await shareRows()).toHaveLength(0);
  });

  it('needs a login', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/shares' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/share/notes.txt', payload: {} })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/share/abc' })).statusCode).toBe(401);
  });
});

describe('GET /api/shares and GET /api/share/{path}', () => {
  it('lists own links for users and all links with usernames for admins, by owner then expiry', async () => {
    await makeUser(t, { username: 'bob' });
    await makeUser(t, { username: 'carol' });
    const bob = await loginAs(t, 'bob');
    const carol = await loginAs(t, 'carol');
    const bobLater = (await createShare(bob, '/api/share/notes.txt', { expires: '2', unit: 'days' })).json();
    const bobSooner = (await createShare(bob, '/api/share/docs/', { expires: '1', unit: 'days' })).json();
    const bobForever = (await createShare(bob, '/api/share/docs/report.pdf')).json();
    const carolLink = (await createShare(carol, '/api/share/docs/')).json();
    const adminLink = (await createShare(admin, '/api/share/notes.txt')).json();

    const own = (await t.request(bob, { method: 'GET', url: '/api/shares' })).json();
    expect(own.map((link: { hash: string }) => link.hash)).toEqual([bobForever.hash, bobSooner.hash, bobLater.hash]);
    expect(own.every((link: object) => !('username' in link))).toBe(true);

    const all = (await t.request(admin, { method: 'GET', url: '/api/shares' })).json();
    expect(all.map((link: { hash: string }) => link.hash)).toEqual([adminLink.hash, bobForever.hash, bobSooner.hash, bobLater.hash, carolLink.hash]);
    expect(all.map((link: { username: string }) => link.username)).toEqual(['admin', 'bob', 'bob', 'bob', 'carol']);
    for (const link of all) expect(Object.keys(link).sort()).toEqual([...LINK_KEYS, 'username'].sort());
  });

  it('answers [] when there are no links', async () => {
    const response = await t.request(admin, { method: 'GET', url: '/api/shares' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
    expect((await t.request(admin, { method: 'GET', url: '/api/share/notes.txt' })).json()).toEqual([]);
  });

  it('returns the caller’s links for exactly that path, with or without the folder slash', async () => {
    await makeUser(t, { username: 'bob' });
    const bob = await loginAs(t, 'bob');
    const folder = (await createShare(bob, '/api/share/docs/')).json();
    await createShare(bob, '/api/share/docs/report.pdf');
    await createShare(admin, '/api/share/docs/');
    const forFolder = (await t.request(bob, { method: 'GET', url: '/api/share/docs/' })).json();
    expect(forFolder.map((link: { hash: string }) => link.hash)).toEqual([folder.hash]);
    expect((await t.request(bob, { method: 'GET', url: '/api/share/docs' })).json()).toHaveLength(1);
    expect((await t.request(bob, { method: 'GET', url: '/api/share/docs/sub/' })).json()).toEqual([]);
  });

  it('for an admin, matches links whose owner absolute path equals the admin’s', async () => {
    await makeUser(t, { username: 'bob', scope: '/users/bob' });
    fs.mkdirSync(path.join(t.root, 'users', 'bob', 'docs'), { recursive: true });
    const bob = await loginAs(t, 'bob');
    const bobLink = (await createShare(bob, '/api/share/docs/')).json();
    expect(bobLink.path).toBe('/docs/');
    // The admin's /docs/ is a different folder from bob's /docs/.
    expect((await t.request(admin, { method: 'GET', url: '/api/share/docs/' })).json()).toEqual([]);
    const matched = (await t.request(admin, { method: 'GET', url: '/api/share/users/bob/docs/' })).json();
    expect(matched.map((link: { hash: string }) => link.hash)).toEqual([bobLink.hash]);
  });

  it('purges expired links lazily when listing', async () => {
    const link = (await createShare(admin, '/api/share/notes.txt', { expires: '1', unit: 'seconds' })).json();
    await t.app.services.db.updateTable('shares').set({ expire: Math.floor(Date.now() / 1000) - 1 }).where('hash', '=', link.hash).execute();
    expect((await t.request(admin, { method: 'GET', url: '/api/shares' })).json()).toEqual([]);
    expect(await shareRows()).toHaveLength(0);
  });

  it('applies the caller’s rules to the looked-up path', async () => {
    await makeUser(t, { username: 'bob', rules: [{ regex: false, allow: false, path: '/docs', regexp: { raw: '' } }] });
    const bob = await loginAs(t, 'bob');
    expect((await t.request(bob, { method: 'GET', url: '/api/share/docs/' })).statusCode).toBe(403);
  });
});

describe('DELETE /api/share/{hash}', () => {
  it('lets the owner delete a link; empty hash 400, unknown 404', async () => {
    const link = (await createShare(admin, '/api/share/notes.txt')).json();
    expect((await t.request(admin, { method: 'DELETE', url: '/api/share/' })).statusCode).toBe(400);
    expect((await t.request(admin, { method: 'DELETE', url: '/api/share' })).statusCode).toBe(400);
    expect((await t.request(admin, { method: 'DELETE', url: '/api/share/AAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
    const deleted = await t.request(admin, { method: 'DELETE', url: `/api/share/${link.hash}` });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toBe('200 OK\n');
    expect(await shareRows()).toHaveLength(0);
    expect((await t.request(admin, { method: 'DELETE', url: `/api/share/${link.hash}` })).statusCode).toBe(404);
  });

  it('refuses another user with 403 and keeps the link; an admin may delete it', async () => {
    await makeUser(t, { username: 'bob' });
    await makeUser(t, { username: 'mallory' });
    const bob = await loginAs(t, 'bob');
    const mallory = await loginAs(t, 'mallory');
    const link = (await createShare(bob, '/api/share/docs/')).json();
    const refused = await t.request(mallory, { method: 'DELETE', url: `/api/share/${link.hash}` });
    expect(refused.statusCode).toBe(403);
    expect(await shareRows()).toHaveLength(1);
    expect((await t.request(admin, { method: 'DELETE', url: `/api/share/${link.hash}` })).statusCode).toBe(200);
    expect(await shareRows()).toHaveLength(0);
  });
});
