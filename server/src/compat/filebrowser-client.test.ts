import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, makeUser, type TestApp } from '../test-support/app.js';

/**
 * Replays, over real HTTP, the requests filebrowser's own front ends send when they save a user
 * or the settings: `JSON.stringify` bodies posted without a content type, which browsers label
 * `text/plain;charset=UTF-8`, and an `X-Auth` header. When an answer says `X-Renew-Token: true`,
 * the client renews with the token it holds, as filebrowser's `fetchURL` does.
 */

const BROWSER_TEXT_TYPE = 'text/plain;charset=UTF-8';
const BOB_PASSWORD = 'bob-password-1';

let t: TestApp;
let base: string;
beforeEach(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await t.close();
});

/** filebrowser's login: the one call it labels application/json. */
async function login(username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password, recaptcha: '' }),
  });
  expect(response.status, `login as ${username}`).toBe(200);
  return response.text();
}

type Session = { jwt: string };

/** filebrowser's fetchURL: X-Auth, an optional stringified body, and a renewal when asked. */
async function fetchURL(session: Session, method: string, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'X-Auth': session.jwt };
  if (body !== undefined) headers['Content-Type'] = BROWSER_TEXT_TYPE;
  const response = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.headers.get('x-renew-token') === 'true') {
    const renewed = await fetch(`${base}/api/renew`, { method: 'POST', headers: { 'X-Auth': session.jwt } });
    expect(renewed.status, `renewal after ${method} ${url}`).toBe(200);
    session.jwt = await renewed.text();
  }
  return response;
}

async function getJSON<T>(session: Session, url: string): Promise<T> {
  const response = await fetchURL(session, 'GET', url);
  expect(response.status, `GET ${url}`).toBe(200);
  return (await response.json()) as T;
}

/** The user inside a token, as the front end reads it (decoded, not verified). */
function tokenUser(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).user as Record<string, unknown>;
}

async function stored(id: number) {
  return (await t.app.services.usersRepository.findById(id))!;
}

async function bobSession(): Promise<{ id: number; session: Session }> {
  const bob = await makeUser(t, { username: 'bob', password: BOB_PASSWORD });
  return { id: bob.id, session: { jwt: await login('bob', BOB_PASSWORD) } };
}

describe('filebrowser 2.63 front end', () => {
  it('saves the profile settings (language and the rest) and renews into a token that carries them', async () => {
    const { id, session } = await bobSession();
    const data = { id, locale: 'fr', hideDotfiles: true, singleClick: true, redirectAfterCopyMove: false, dateFormat: true, aceEditorTheme: 'twilight' };
    const response = await fetchURL(session, 'PUT', `/api/users/${id}`, {
      what: 'user',
      which: ['locale', 'hideDotfiles', 'singleClick', 'redirectAfterCopyMove', 'dateFormat', 'aceEditorTheme'],
      data,
    });
    expect(response.status).toBe(200);
    expect(await stored(id)).toMatchObject({ locale: 'fr', hideDotfiles: true, singleClick: true, redirectAfterCopyMove: false, dateFormat: true, aceEditorTheme: 'twilight' });
    expect(tokenUser(session.jwt)).toMatchObject({ locale: 'fr', aceEditorTheme: 'twilight' });
  });

  it('remembers the view mode and the sorting the listing picks', async () => {
    const { id, session } = await bobSession();
    const view = await fetchURL(session, 'PUT', `/api/users/${id}`, { what: 'user', which: ['viewMode'], data: { id, viewMode: 'mosaic gallery' } });
    expect(view.status).toBe(200);
    const sorting = await fetchURL(session, 'PUT', `/api/users/${id}`, { what: 'user', which: ['sorting'], data: { id, sorting: { by: 'modified', asc: true } } });
    expect(sorting.status).toBe(200);
    expect(await stored(id)).toMatchObject({ viewMode: 'mosaic gallery', sorting: { by: 'modified', asc: true } });
  });

  it('changes the own password and stays logged in; other sessions of that user end', async () => {
    const { id, session } = await bobSession();
    const elsewhere = await login('bob', BOB_PASSWORD);
    const before = session.jwt;
    const response = await fetchURL(session, 'PUT', `/api/users/${id}`, {
      what: 'user',
      which: ['password'],
      current_password: BOB_PASSWORD,
      data: { id, password: 'a-new-long-password' },
    });
    expect(response.status).toBe(200);
    expect(session.jwt).not.toBe(before);
    // The session that made the change keeps working, with the token it had and the renewed one.
    for (const jwt of [before, session.jwt]) {
      expect((await fetchURL({ jwt }, 'GET', `/api/users/${id}`)).status).toBe(200);
    }
    expect((await fetchURL({ jwt: elsewhere }, 'GET', `/api/users/${id}`)).status).toBe(401);
    expect((await fetch(`${base}/api/renew`, { method: 'POST', headers: { 'X-Auth': elsewhere } })).status).toBe(401);
    await login('bob', 'a-new-long-password');
  });

  it('saves the global settings it loaded and edited', async () => {
    const admin = { jwt: await login('admin', ADMIN_PASSWORD) };
    const settings = await getJSON<Record<string, unknown>>(admin, '/api/settings');
    const edited = {
      ...settings,
      signup: true,
      branding: { ...(settings.branding as object), name: 'Team files' },
      // The form sends the shell back from a one-line-per-word text area.
      shell: ''.split('\n'),
    };
    const response = await fetchURL(admin, 'PUT', '/api/settings', edited);
    expect(response.status).toBe(200);
    expect(await getJSON(admin, '/api/settings')).toMatchObject({ signup: true, branding: { name: 'Team files' } });
  });

  it('creates, edits and deletes a user from the admin screens', async () => {
    const admin = { jwt: await login('admin', ADMIN_PASSWORD) };
    const settings = await getJSON<{ defaults: Record<string, unknown> }>(admin, '/api/settings');
    const created = await fetchURL(admin, 'POST', '/api/users', {
      what: 'user',
      which: [],
      current_password: ADMIN_PASSWORD,
      data: { ...settings.defaults, username: 'carol', password: 'carol-password-1', rules: [], lockPassword: false, id: 0, scope: '/carol' },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/settings\/users\/\d+$/);
    const id = Number(location.split('/').pop());

    const user = await getJSON<Record<string, unknown>>(admin, `/api/users/${id}`);
    const edited = await fetchURL(admin, 'PUT', `/api/users/${id}`, {
      what: 'user',
      which: ['all'],
      current_password: ADMIN_PASSWORD,
      data: { ...user, locale: 'de', password: '' },
    });
    expect(edited.status).toBe(200);
    expect(await stored(id)).toMatchObject({ username: 'carol', locale: 'de', scope: '/carol' });
    await login('carol', 'carol-password-1');

    const removed = await fetchURL(admin, 'DELETE', `/api/users/${id}`, { current_password: ADMIN_PASSWORD });
    expect(removed.status).toBe(200);
    expect(await stored(id)).toBeUndefined();
  });

  it('refuses the deletion with a wrong current password and keeps the user', async () => {
    const admin = { jwt: await login('admin', ADMIN_PASSWORD) };
    const bob = await makeUser(t, { username: 'bob' });
    const response = await fetchURL(admin, 'DELETE', `/api/users/${bob.id}`, { current_password: 'not-the-password' });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/current password is incorrect/);
    expect(await stored(bob.id)).toBeDefined();
  });

  it('answers malformed JSON with 400 and changes nothing', async () => {
    const { id, session } = await bobSession();
    for (const [method, url] of [['PUT', `/api/users/${id}`], ['POST', '/api/users'], ['PUT', '/api/settings'], ['DELETE', `/api/users/${id}`]] as const) {
      const response = await fetch(`${base}${url}`, { method, headers: { 'X-Auth': session.jwt, 'Content-Type': BROWSER_TEXT_TYPE }, body: '{"what":"user",' });
      expect(response.status, `${method} ${url}`).toBe(400);
      expect(await response.text(), `${method} ${url}`).toBe('400 Bad Request (malformed JSON)\n');
    }
    expect(await stored(id)).toBeDefined();
  });
});

describe('filebrowser 2.31 front end', () => {
  it('saves the profile settings it knows of', async () => {
    const { id, session } = await bobSession();
    const response = await fetchURL(session, 'PUT', `/api/users/${id}`, {
      what: 'user',
      which: ['locale', 'hideDotfiles', 'singleClick', 'dateFormat'],
      data: { id, locale: 'pt-br', hideDotfiles: true, singleClick: false, dateFormat: true },
    });
    expect(response.status).toBe(200);
    expect(await stored(id)).toMatchObject({ locale: 'pt-br', hideDotfiles: true, dateFormat: true });
  });

  it('remembers the view mode the listing picks', async () => {
    const { id, session } = await bobSession();
    const response = await fetchURL(session, 'PUT', `/api/users/${id}`, { what: 'user', which: ['viewMode'], data: { id, viewMode: 'mosaic' } });
    expect(response.status).toBe(200);
    expect((await stored(id)).viewMode).toBe('mosaic');
  });
});
