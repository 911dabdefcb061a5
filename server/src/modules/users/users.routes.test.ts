import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { call, postUser, rememberPassword } from '../../test-support/users-api.js';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
  rememberPassword(ADMIN_PASSWORD);
});
afterEach(async () => {
  await t.close();
});

const BOB_PASSWORD = rememberPassword('bob-password-1');
const NEW_PASSWORD = rememberPassword('a-fresh-long-password');

async function createViaApi(data: Record<string, unknown>, extra: { which?: string[]; current_password?: string } = {}) {
  return postUser(t, admin, { which: extra.which ?? [], current_password: extra.current_password ?? ADMIN_PASSWORD, data });
}

describe('GET /api/users', () => {
  it('lists every user sorted by id for an admin, with scopes and no secrets', async () => {
    await makeUser(t, { username: 'bob', scope: '/bob' });
    await makeUser(t, { username: 'carol' });
    const response = await call(t, admin, { method: 'GET', url: '/api/users' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const users = response.json() as Array<{ id: number; username: string; scope: string; password: string }>;
    expect(users.map((user) => user.username)).toEqual(['admin', 'bob', 'carol']);
    expect(users.map((user) => user.id)).toEqual([...users.map((user) => user.id)].sort((a, b) => a - b));
    expect(users[1]).toMatchObject({ scope: '/bob', password: '' });
    expect(Object.keys(users[0]!).sort()).toEqual(
      [
        'id', 'username', 'password', 'scope', 'locale', 'lockPassword', 'viewMode', 'singleClick', 'redirectAfterCopyMove',
        'perm', 'commands', 'sorting', 'rules', 'hideDotfiles', 'dateFormat', 'aceEditorTheme',
      ].sort(),
    );
  });

  it('is 403 for non-admins and 401 without a token', async () => {
    await makeUser(t, { username: 'bob' });
    const bob = await loginAs(t, 'bob');
    expect((await call(t, bob, { method: 'GET', url: '/api/users' })).statusCode).toBe(403);
    expect((await call(t, undefined, { method: 'GET', url: '/api/users' })).statusCode).toBe(401);
  });
});

describe('GET /api/users/{id}', () => {
  it('lets an admin read anyone, scope included', async () => {
    const bob = await makeUser(t, { username: 'bob', scope: '/bob' });
    const response = await call(t, admin, { method: 'GET', url: `/api/users/${bob.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: bob.id, username: 'bob', scope: '/bob', password: '' });
  });

  it('gives a non-admin their own record with an empty scope, and 403 for anyone else', async () => {
    const bob = await makeUser(t, { username: 'bob', scope: '/bob' });
    const token = await loginAs(t, 'bob');
    const own = await call(t, token, { method: 'GET', url: `/api/users/${bob.id}` });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: bob.id, username: 'bob', scope: '', password: '' });
    expect((await call(t, token, { method: 'GET', url: '/api/users/1' })).statusCode).toBe(403);
  });

  it('answers 404 for a missing user and 400 for a malformed id', async () => {
    expect((await call(t, admin, { method: 'GET', url: '/api/users/999' })).statusCode).toBe(404);
    expect((await call(t, admin, { method: 'GET', url: '/api/users/abc' })).statusCode).toBe(400);
  });
});

describe('POST /api/users', () => {
  it('creates a user: 201, Location to the edit screen, stored fields, hashed password', async () => {
    const response = await createViaApi({
      username: 'bob',
      password: BOB_PASSWORD,
      scope: '/bob',
      locale: 'de',
      viewMode: 'list',
      commands: [' ls ', '', 'git'],
      perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: false, share: false, download: true },
      rules: [{ regex: false, allow: false, path: '/bob/private', regexp: { raw: '' } }],
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('201 Created\n');
    const location = response.headers.location as string;
    expect(location).toMatch(/^\/settings\/users\/\d+$/);
    const id = Number(location.split('/').pop());
    const stored = await t.app.services.usersRepository.findById(id);
    expect(stored).toMatchObject({ username: 'bob', scope: '/bob', locale: 'de', viewMode: 'list', commands: ['ls', 'git'] });
    expect(stored?.perm.delete).toBe(false);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored?.passwordHash).not.toContain(BOB_PASSWORD);
    expect(fs.statSync(path.join(t.root, 'bob')).isDirectory()).toBe(true);
    await loginAs(t, 'bob', BOB_PASSWORD);
  });

  it('refuses a wrong envelope: other `what`, a non-empty `which`', async () => {
    const data = { username: 'bob', password: BOB_PASSWORD };
    expect((await postUser(t, admin, { what: 'share', which: [], current_password: ADMIN_PASSWORD, data })).statusCode).toBe(400);
    expect((await createViaApi(data, { which: ['username'] })).statusCode).toBe(400);
    expect(await t.app.services.usersRepository.findByUsername('bob')).toBeUndefined();
  });

  it("requires the admin's current password under json auth", async () => {
    const data = { username: 'bob', password: BOB_PASSWORD };
    const missing = await postUser(t, admin, { which: [], data });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(/current password is incorrect/);
    expect((await createViaApi(data, { current_password: 'not-the-password' })).statusCode).toBe(400);
    await t.app.services.settings.setAuthMethod('proxy');
    expect((await postUser(t, admin, { which: [], data })).statusCode).toBe(201);
  });

  it('refuses empty, short and common passwords and empty usernames with 400', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ username: 'bob' }, /password is empty/],
      [{ username: 'bob', password: '' }, /password is empty/],
      [{ username: 'bob', password: 'short' }, /minimum length is 12/],
      [{ username: 'bob', password: 'password1234' }, /too easy/],
      [{ username: '  ', password: BOB_PASSWORD }, /username is empty/],
      [{ username: 'a/b', password: BOB_PASSWORD }, /invalid username/],
      [{ username: 42, password: BOB_PASSWORD }, /invalid username/],
    ];
    for (const [data, message] of cases) {
      const response = await createViaApi(data);
      expect(response.statusCode, JSON.stringify(data)).toBe(400);
      expect(response.body).toMatch(message);
    }
    expect(await t.app.services.usersRepository.count()).toBe(1);
  });

  it('refuses share without download, and invalid rules, with 400', async () => {
    const perm = { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: false };
    const share = await createViaApi({ username: 'bob', password: BOB_PASSWORD, perm });
    expect(share.statusCode).toBe(400);
    expect(share.body).toMatch(/permission to share requires permission to download/);
    const regex = await createViaApi({ username: 'bob', password: BOB_PASSWORD, rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(' } }] });
    expect(regex.statusCode).toBe(400);
    expect(regex.body).toMatch(/invalid rule/);
    expect(await t.app.services.usersRepository.findByUsername('bob')).toBeUndefined();
  });

  it('gives an admin every permission and never a locked password', async () => {
    const perm = { admin: true, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false };
    const response = await createViaApi({ username: 'root2', password: BOB_PASSWORD, perm, lockPassword: true });
    expect(response.statusCode).toBe(201);
    const stored = await t.app.services.usersRepository.findByUsername('root2');
    expect(Object.values(stored!.perm).every(Boolean)).toBe(true);
    expect(stored?.lockPassword).toBe(false);
  });

  it('keeps scopes inside the root: `..` is clamped and nothing is created outside', async () => {
    const before = fs.readdirSync(path.dirname(t.root)).sort();
    const response = await createViaApi({ username: 'bob', password: BOB_PASSWORD, scope: '../../escape/../outside/x' });
    expect(response.statusCode).toBe(201);
    const stored = await t.app.services.usersRepository.findByUsername('bob');
    expect(stored?.scope).toBe('/outside/x');
    expect(fs.statSync(path.join(t.root, 'outside', 'x')).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.dirname(t.root)).sort()).toEqual(before);
    const dotted = await createViaApi({ username: 'carol', password: BOB_PASSWORD, scope: ' . ' });
    expect(dotted.statusCode).toBe(201);
    expect((await t.app.services.usersRepository.findByUsername('carol'))?.scope).toBe('/');
  });

  it('derives a home under userHomeBasePath when createUserDir is on and no scope is given', async () => {
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), createUserDir: true, userHomeBasePath: '/homes' });
    expect((await createViaApi({ username: 'Bob Smith', password: BOB_PASSWORD, scope: '' })).statusCode).toBe(201);
    expect((await t.app.services.usersRepository.findByUsername('Bob Smith'))?.scope).toBe('/homes/Bob-Smith');
    expect(fs.statSync(path.join(t.root, 'homes', 'Bob-Smith')).isDirectory()).toBe(true);
    // Leaving the scope out entirely derives it too.
    expect((await createViaApi({ username: 'carol', password: BOB_PASSWORD })).statusCode).toBe(201);
    expect((await t.app.services.usersRepository.findByUsername('carol'))?.scope).toBe('/homes/carol');
    // Cleaning drops `..` and odd characters, so a crafted name cannot leave the base path.
    expect((await createViaApi({ username: '....da..ve!?', password: BOB_PASSWORD })).statusCode).toBe(201);
    expect((await t.app.services.usersRepository.findByUsername('....da..ve!?'))?.scope).toBe('/homes/dave-');
    // A name that cleans down to nothing cannot have a home.
    const nothing = await createViaApi({ username: '..', password: BOB_PASSWORD });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.body).toMatch(/home folder/);
    // An explicit scope wins over the derived home.
    expect((await createViaApi({ username: 'erin', password: BOB_PASSWORD, scope: '/shared' })).statusCode).toBe(201);
    expect((await t.app.services.usersRepository.findByUsername('erin'))?.scope).toBe('/shared');
  });

  it('refuses a home already owned by someone else, compared case-insensitively (409)', async () => {
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), createUserDir: true, signup: true });
    expect((await createViaApi({ username: 'Bob Smith', password: BOB_PASSWORD, scope: '' })).statusCode).toBe(201);
    const clash = await createViaApi({ username: 'bob-smith', password: BOB_PASSWORD, scope: '' });
    expect(clash.statusCode).toBe(409);
    const signup = await t.app.inject({ method: 'POST', url: '/api/signup', payload: { username: 'BOB_SMITH'.replace('_', ' '), password: BOB_PASSWORD } });
    expect(signup.statusCode).toBe(409);
    expect(await t.app.services.usersRepository.count()).toBe(2);
  });

  it('refuses a username that differs only in case (409)', async () => {
    expect((await createViaApi({ username: 'bob', password: BOB_PASSWORD })).statusCode).toBe(201);
    expect((await createViaApi({ username: 'BOB', password: BOB_PASSWORD })).statusCode).toBe(409);
  });

  it('is 403 for non-admins', async () => {
    await makeUser(t, { username: 'bob' });
    const bob = await loginAs(t, 'bob');
    const response = await postUser(t, bob, { which: [], current_password: BOB_PASSWORD, data: { username: 'eve', password: NEW_PASSWORD } });
    expect(response.statusCode).toBe(403);
  });

  it('answers malformed JSON with 400', async () => {
    const response = await call(t, admin, { method: 'POST', url: '/api/users', headers: { 'content-type': 'application/json' }, payload: '{"what":' });
    expect(response.statusCode).toBe(400);
  });
});

describe('DELETE /api/users/{id}', () => {
  it("requires the requester's current password under json auth", async () => {
    const bob = await makeUser(t, { username: 'bob' });
    expect((await call(t, admin, { method: 'DELETE', url: `/api/users/${bob.id}` })).statusCode).toBe(400);
    expect((await call(t, admin, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: {} })).statusCode).toBe(400);
    const wrong = await call(t, admin, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: { current_password: 'wrong-password' } });
    expect(wrong.statusCode).toBe(400);
    expect(await t.app.services.usersRepository.findById(bob.id)).toBeDefined();
    const malformed = await call(t, admin, {
      method: 'DELETE',
      url: `/api/users/${bob.id}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"current_password":',
    });
    expect(malformed.statusCode).toBe(400);
    const ok = await call(t, admin, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: { current_password: ADMIN_PASSWORD } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('200 OK\n');
    expect((await call(t, admin, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(404);
  });

  it('accepts an empty object outside json auth', async () => {
    const bob = await makeUser(t, { username: 'bob' });
    await t.app.services.settings.setAuthMethod('proxy');
    expect((await call(t, admin, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: {} })).statusCode).toBe(200);
  });

  it('never deletes the sole admin (403), but does once another admin exists', async () => {
    const refused = await call(t, admin, { method: 'DELETE', url: '/api/users/1', payload: { current_password: ADMIN_PASSWORD } });
    expect(refused.statusCode).toBe(403);
    await makeUser(t, { username: 'second', perm: { admin: true } });
    const second = await loginAs(t, 'second');
    expect((await call(t, second, { method: 'DELETE', url: '/api/users/1', payload: { current_password: 'second-password-1' } })).statusCode).toBe(200);
  });

  it('lets users delete themselves but nobody else; 404 for a missing user', async () => {
    const bob = await makeUser(t, { username: 'bob' });
    await makeUser(t, { username: 'carol' });
    const token = await loginAs(t, 'bob');
    expect((await call(t, token, { method: 'DELETE', url: '/api/users/1', payload: { current_password: BOB_PASSWORD } })).statusCode).toBe(403);
    expect((await call(t, admin, { method: 'DELETE', url: '/api/users/999', payload: { current_password: ADMIN_PASSWORD } })).statusCode).toBe(404);
    expect((await call(t, token, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: { current_password: BOB_PASSWORD } })).statusCode).toBe(200);
    // The deleted user's token stops working at once.
    expect((await call(t, token, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(401);
  });
});
