import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { call, putUser, rememberPassword } from '../../test-support/users-api.js';
import type { UserRecord } from './users.model.js';

let t: TestApp;
let admin: string;
let bob: UserRecord;
let bobToken: string;
beforeEach(async () => {
  t = await createTestApp();
  rememberPassword(ADMIN_PASSWORD);
  admin = await t.login();
  bob = await makeUser(t, { username: 'bob', scope: '/bob' });
  bobToken = await loginAs(t, 'bob');
});
afterEach(async () => {
  await t.close();
});

const BOB_PASSWORD = rememberPassword('bob-password-1');
const NEW_PASSWORD = rememberPassword('a-fresh-long-password');

const stored = async (id = bob.id) => (await t.app.services.usersRepository.findById(id))!;

describe('PUT /api/users/{id}: named fields', () => {
  it('lets users change their own preferences and nothing else moves', async () => {
    const before = await stored();
    const response = await putUser(t, bobToken, bob.id, {
      which: ['locale', 'hideDotfiles', 'singleClick', 'redirectAfterCopyMove', 'dateFormat', 'aceEditorTheme'],
      data: { id: bob.id, locale: 'fr', hideDotfiles: true, singleClick: true, redirectAfterCopyMove: false, dateFormat: true, aceEditorTheme: 'monokai', scope: '/', username: 'mallory' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('200 OK\n');
    const after = await stored();
    expect(after).toMatchObject({ locale: 'fr', hideDotfiles: true, singleClick: true, redirectAfterCopyMove: false, dateFormat: true, aceEditorTheme: 'monokai' });
    expect(after.username).toBe('bob');
    expect(after.scope).toBe('/bob');
    expect(after.passwordHash).toBe(before.passwordHash);
  });

  it('stores sorting and view mode from the listing, defaulting empty values', async () => {
    expect((await putUser(t, bobToken, bob.id, { which: ['sorting'], data: { sorting: { by: 'size', asc: true } } })).statusCode).toBe(200);
    expect((await stored()).sorting).toEqual({ by: 'size', asc: true });
    expect((await putUser(t, bobToken, bob.id, { which: ['sorting'], data: { sorting: { by: '', asc: false } } })).statusCode).toBe(200);
    expect((await stored()).sorting).toEqual({ by: 'name', asc: false });
    expect((await putUser(t, bobToken, bob.id, { which: ['viewMode'], data: { viewMode: 'mosaic gallery' } })).statusCode).toBe(200);
    expect((await stored()).viewMode).toBe('mosaic gallery');
    expect((await putUser(t, bobToken, bob.id, { which: ['viewMode'], data: { viewMode: '' } })).statusCode).toBe(200);
    expect((await stored()).viewMode).toBe('list');
    expect((await putUser(t, bobToken, bob.id, { which: ['viewMode'], data: { viewMode: 'tiles' } })).statusCode).toBe(400);
    expect((await putUser(t, bobToken, bob.id, { which: ['sorting'], data: { sorting: { by: 'colour', asc: true } } })).statusCode).toBe(400);
  });

  it('matches field names case-insensitively, as the upstream server does', async () => {
    expect((await putUser(t, bobToken, bob.id, { which: ['Locale'], data: { locale: 'it' } })).statusCode).toBe(200);
    expect((await stored()).locale).toBe('it');
  });

  it('refuses unknown fields, missing values and badly typed values with 400', async () => {
    expect((await putUser(t, bobToken, bob.id, { which: ['favouriteColour'], data: { favouriteColour: 'red' } })).statusCode).toBe(400);
    expect((await putUser(t, bobToken, bob.id, { which: ['locale'], data: {} })).statusCode).toBe(400);
    expect((await putUser(t, bobToken, bob.id, { which: ['singleClick'], data: { singleClick: 'yes' } })).statusCode).toBe(400);
    expect((await putUser(t, bobToken, bob.id, { which: ['aceEditorTheme'], data: { aceEditorTheme: 'x'.repeat(65) } })).statusCode).toBe(400);
    expect((await putUser(t, bobToken, bob.id, { what: 'share', which: ['locale'], data: { locale: 'fr' } })).statusCode).toBe(400);
    expect((await stored()).locale).toBe('en');
  });

  it('refuses a body whose data.id names another user (400)', async () => {
    const response = await putUser(t, admin, bob.id, { which: ['locale'], data: { id: 1, locale: 'fr' } });
    expect(response.statusCode).toBe(400);
    expect((await stored()).locale).toBe('en');
    expect((await stored(1)).locale).toBe('en');
  });

  it('refuses non-admins naming privileged fields (403), with or without their password', async () => {
    const values: Record<string, unknown> = {
      username: 'bobby',
      scope: '/',
      lockPassword: false,
      perm: { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true },
      commands: ['rm'],
      rules: [],
    };
    for (const [field, value] of Object.entries(values)) {
      for (const current_password of [undefined, BOB_PASSWORD]) {
        const response = await putUser(t, bobToken, bob.id, { which: [field], current_password, data: { id: bob.id, [field]: value } });
        expect(response.statusCode, `${field} ${current_password ?? ''}`).toBe(403);
      }
    }
    const after = await stored();
    expect(after.username).toBe('bob');
    expect(after.scope).toBe('/bob');
    expect(after.perm.admin).toBe(false);
  });

  it('refuses users editing someone else (403) and answers 404 for a missing user', async () => {
    const carol = await makeUser(t, { username: 'carol' });
    expect((await putUser(t, bobToken, carol.id, { which: ['locale'], data: { locale: 'fr' } })).statusCode).toBe(403);
    expect((await putUser(t, admin, 999, { which: ['locale'], data: { locale: 'fr' } })).statusCode).toBe(404);
  });
});

describe('PUT /api/users/{id}: passwords', () => {
  it('changes a password only with the current one under json auth', async () => {
    const missing = await putUser(t, bobToken, bob.id, { which: ['password'], data: { password: NEW_PASSWORD } });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(/current password is incorrect/);
    expect((await putUser(t, bobToken, bob.id, { which: ['password'], current_password: 'wrong', data: { password: NEW_PASSWORD } })).statusCode).toBe(400);
    await loginAs(t, 'bob', BOB_PASSWORD);
    const ok = await putUser(t, bobToken, bob.id, { which: ['password'], current_password: BOB_PASSWORD, data: { password: NEW_PASSWORD } });
    expect(ok.statusCode).toBe(200);
    await loginAs(t, 'bob', NEW_PASSWORD);
    await expect(loginAs(t, 'bob', BOB_PASSWORD)).rejects.toThrow(/403/);
  });

  it('validates the new password (empty, short, common → 400)', async () => {
    for (const password of ['', 'short', 'password1234']) {
      const response = await putUser(t, bobToken, bob.id, { which: ['password'], current_password: BOB_PASSWORD, data: { password } });
      expect(response.statusCode, password).toBe(400);
    }
    await loginAs(t, 'bob', BOB_PASSWORD);
  });

  it('refuses a locked password for its user (403) but lets an admin set it', async () => {
    const locked = await makeUser(t, { username: 'locked', lockPassword: true });
    const token = await loginAs(t, 'locked');
    const own = await putUser(t, token, locked.id, { which: ['password'], current_password: 'locked-password-1', data: { password: NEW_PASSWORD } });
    expect(own.statusCode).toBe(403);
    const byAdmin = await putUser(t, admin, locked.id, { which: ['password'], current_password: ADMIN_PASSWORD, data: { password: NEW_PASSWORD } });
    expect(byAdmin.statusCode).toBe(200);
    await loginAs(t, 'locked', NEW_PASSWORD);
  });

  it('needs no current password outside json auth', async () => {
    await t.app.services.settings.setAuthMethod('noauth');
    expect((await putUser(t, admin, bob.id, { which: ['password'], data: { password: NEW_PASSWORD } })).statusCode).toBe(200);
  });
});

describe('PUT /api/users/{id}: admin edits', () => {
  const fullRecord = (overrides: Record<string, unknown> = {}) => ({
    id: 0,
    username: 'bob',
    password: '',
    scope: '/bob',
    locale: 'en',
    lockPassword: false,
    viewMode: 'list',
    singleClick: false,
    redirectAfterCopyMove: true,
    perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true },
    commands: [],
    sorting: { by: 'name', asc: false },
    rules: [],
    hideDotfiles: false,
    dateFormat: false,
    aceEditorTheme: '',
    ...overrides,
  });

  it('replaces the whole record with which ["all"] or [] (admin only), keeping the hash on an empty password', async () => {
    const before = await stored();
    const data = fullRecord({ id: bob.id, username: 'robert', scope: '/x/../robert/', locale: 'nl-be', commands: [' git ', ''], lockPassword: true });
    const response = await putUser(t, admin, bob.id, { which: ['all'], current_password: ADMIN_PASSWORD, data });
    expect(response.statusCode).toBe(200);
    const after = await stored();
    expect(after).toMatchObject({ username: 'robert', scope: '/robert', locale: 'nl-be', commands: ['git'], lockPassword: true });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(fs.statSync(path.join(t.root, 'robert')).isDirectory()).toBe(true);
    const empty = await putUser(t, admin, bob.id, { which: [], current_password: ADMIN_PASSWORD, data: { ...data, locale: 'ja' } });
    expect(empty.statusCode).toBe(200);
    expect((await stored()).locale).toBe('ja');
  });

  it('refuses a full replace from a non-admin (403), even of their own record', async () => {
    const data = fullRecord({ id: bob.id, perm: { ...fullRecord().perm, admin: true } });
    for (const which of [[], ['all']]) {
      const response = await putUser(t, bobToken, bob.id, { which, current_password: BOB_PASSWORD, data });
      expect(response.statusCode).toBe(403);
    }
    expect((await stored()).perm.admin).toBe(false);
  });

  it("requires the admin's current password for sensitive fields under json auth", async () => {
    const record = fullRecord({ id: bob.id });
    const cases: Array<[string[], Record<string, unknown>]> = [
      [['all'], record],
      [[], record],
      [['username'], { username: 'robert' }],
      [['scope'], { scope: '/' }],
      [['perm'], { perm: record.perm }],
      [['PERM'], { perm: record.perm }],
      [['commands'], { commands: ['ls'] }],
      [['lockPassword'], { lockPassword: true }],
      [['rules'], { rules: [] }],
      [['locale', 'password'], { locale: 'fr', password: NEW_PASSWORD }],
    ];
    for (const [index, [which, data]] of cases.entries()) {
      expect((await putUser(t, admin, bob.id, { which, data })).statusCode, which.join()).toBe(400);
      // From a new address each time: five wrong passwords from one would be answered 429.
      const wrong = await call(t, admin, { method: 'PUT', url: `/api/users/${bob.id}`, remoteAddress: `10.8.0.${index}`, payload: { what: 'user', which, current_password: 'wrong', data } });
      expect(wrong.statusCode, which.join()).toBe(400);
    }
    expect((await stored()).locale).toBe('en');
    // Harmless fields do not need it.
    expect((await putUser(t, admin, bob.id, { which: ['locale'], data: { locale: 'fr' } })).statusCode).toBe(200);
  });

  it('keeps scope changes inside the root, also when named alone', async () => {
    const response = await putUser(t, admin, bob.id, { which: ['scope'], current_password: ADMIN_PASSWORD, data: { scope: '../../../elsewhere/' } });
    expect(response.statusCode).toBe(200);
    expect((await stored()).scope).toBe('/elsewhere');
    expect(fs.existsSync(path.join(t.root, 'elsewhere'))).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(t.root), 'elsewhere'))).toBe(false);
  });

  it('forces every permission on admins and refuses share without download (400)', async () => {
    const perm = { admin: true, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false };
    expect((await putUser(t, admin, bob.id, { which: ['perm'], current_password: ADMIN_PASSWORD, data: { perm } })).statusCode).toBe(200);
    expect(Object.values((await stored()).perm).every(Boolean)).toBe(true);
    const noDownload = { ...perm, admin: false, share: true, download: false };
    const response = await putUser(t, admin, bob.id, { which: ['perm'], current_password: ADMIN_PASSWORD, data: { perm: noDownload } });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/share requires permission to download/);
  });

  it('stores rules and commands, refusing invalid expressions (400)', async () => {
    const rules = [{ regex: true, allow: false, path: '', regexp: { raw: '\\.bak$' } }];
    expect((await putUser(t, admin, bob.id, { which: ['rules', 'commands'], current_password: ADMIN_PASSWORD, data: { rules, commands: ['ls', ' git '] } })).statusCode).toBe(200);
    expect((await stored()).rules).toEqual(rules);
    expect((await stored()).commands).toEqual(['ls', 'git']);
    const padded = [{ ...rules[0], note: 'x'.repeat(1000) }];
    expect((await putUser(t, admin, bob.id, { which: ['rules'], current_password: ADMIN_PASSWORD, data: { rules: padded } })).statusCode).toBe(200);
    expect((await stored()).rules).toEqual(rules);
    const bad = await putUser(t, admin, bob.id, { which: ['rules'], current_password: ADMIN_PASSWORD, data: { rules: [{ ...rules[0], regexp: { raw: '[' } }] } });
    expect(bad.statusCode).toBe(400);
    expect((await putUser(t, admin, bob.id, { which: ['commands'], current_password: ADMIN_PASSWORD, data: { commands: ['rm -rf'] } })).statusCode).toBe(400);
    expect((await stored()).rules).toEqual(rules);
  });

  it('never lets the sole admin lose admin rights (403)', async () => {
    const perm = { admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true };
    const response = await putUser(t, admin, 1, { which: ['perm'], current_password: ADMIN_PASSWORD, data: { perm } });
    expect(response.statusCode).toBe(403);
    expect((await stored(1)).perm.admin).toBe(true);
    await makeUser(t, { username: 'second', perm: { admin: true } });
    expect((await putUser(t, admin, 1, { which: ['perm'], current_password: ADMIN_PASSWORD, data: { perm } })).statusCode).toBe(200);
    expect((await stored(1)).perm.admin).toBe(false);
  });

  it('refuses renaming onto a taken username (409)', async () => {
    const response = await putUser(t, admin, bob.id, { which: ['username'], current_password: ADMIN_PASSWORD, data: { username: 'ADMIN' } });
    expect(response.statusCode).toBe(409);
  });
});

describe('token renewal after an update', () => {
  it("asks the user's older tokens to renew once their record changed", async () => {
    const quiet = await call(t, bobToken, { method: 'GET', url: `/api/users/${bob.id}` });
    expect(quiet.headers['x-renew-token']).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await putUser(t, admin, bob.id, { which: ['locale'], data: { locale: 'fr' } })).statusCode).toBe(200);
    const stale = await call(t, bobToken, { method: 'GET', url: `/api/users/${bob.id}` });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-renew-token']).toBe('true');
    const renewed = await call(t, bobToken, { method: 'POST', url: '/api/renew' });
    expect(renewed.statusCode).toBe(200);
    const claims = JSON.parse(Buffer.from(renewed.body.split('.')[1]!, 'base64url').toString());
    expect(claims.user.locale).toBe('fr');
    const fresh = await call(t, renewed.body, { method: 'GET', url: `/api/users/${bob.id}` });
    expect(fresh.headers['x-renew-token']).toBeUndefined();
    // The admin's own token is untouched by edits to someone else.
    expect((await call(t, admin, { method: 'GET', url: '/api/users/1' })).headers['x-renew-token']).toBeUndefined();
  });

  it('tells the editing user to renew when they changed their own record', async () => {
    const response = await putUser(t, bobToken, bob.id, { which: ['locale'], data: { locale: 'fr' } });
    expect(response.headers['x-renew-token']).toBe('true');
  });

  it("keeps an admin's session when they move their own scope", async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await putUser(t, admin, 1, { which: ['scope'], current_password: ADMIN_PASSWORD, data: { scope: '/admin-home' } });
    expect(response.statusCode).toBe(200);
    const next = await call(t, admin, { method: 'GET', url: '/api/users/1' });
    expect(next.statusCode).toBe(200);
    expect(next.json().scope).toBe('/admin-home');
  });
});
