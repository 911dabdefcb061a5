import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookEvents, type Settings } from '@burrow/protocol';
import { buildApp } from '../../app.js';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterEach(async () => {
  await t.close();
});

async function getSettings(token = admin): Promise<Settings> {
  const response = await t.request(token, { method: 'GET', url: '/api/settings' });
  expect(response.statusCode).toBe(200);
  return response.json() as Settings;
}

function putSettings(body: unknown, token = admin) {
  return t.request(token, { method: 'PUT', url: '/api/settings', payload: body as object });
}

describe('GET /api/settings', () => {
  it('returns the fresh-install settings in full', async () => {
    const response = await t.request(admin, { method: 'GET', url: '/api/settings' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    expect(response.json()).toEqual({
      signup: false,
      hideLoginButton: true,
      createUserDir: false,
      minimumPasswordLength: 12,
      userHomeBasePath: '/users',
      defaults: {
        scope: '.',
        locale: 'en',
        viewMode: 'mosaic',
        singleClick: false,
        redirectAfterCopyMove: true,
        sorting: { by: '', asc: false },
        perm: { admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true },
        commands: [],
        hideDotfiles: false,
        dateFormat: false,
        aceEditorTheme: '',
      },
      authMethod: 'json',
      rules: [],
      branding: { name: '', disableExternal: false, disableUsedPercentage: false, files: '', theme: '', color: '' },
      tus: { chunkSize: 10485760, retryCount: 5 },
      shell: [],
      commands: Object.fromEntries(HookEvents.map((event) => [event, []])),
      trash: { enabled: true, retentionDays: 30, maxSize: 0 },
    });
  });

  it('never exposes the signing key', async () => {
    const response = await t.request(admin, { method: 'GET', url: '/api/settings' });
    const key = Buffer.from(t.app.services.settings.signingKey()).toString('base64');
    expect(response.body).not.toContain(key);
    expect(response.body).not.toMatch(/signing/i);
  });

  it('is admin only: 403 for users, 401 without a token', async () => {
    await makeUser(t, { username: 'bob' });
    const bob = await loginAs(t, 'bob');
    expect((await t.request(bob, { method: 'GET', url: '/api/settings' })).statusCode).toBe(403);
    expect((await t.request(undefined, { method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    expect((await putSettings(await getSettings(), bob)).statusCode).toBe(403);
    expect((await t.request(undefined, { method: 'PUT', url: '/api/settings', payload: await getSettings() })).statusCode).toBe(401);
  });
});

describe('PUT /api/settings', () => {
  it('stores a full update and answers 200 OK', async () => {
    const current = await getSettings();
    const next: Settings = {
      ...current,
      signup: true,
      createUserDir: true,
      userHomeBasePath: '/homes',
      minimumPasswordLength: 8,
      rules: [{ regex: false, allow: false, path: '/private', regexp: { raw: '' } }],
      branding: { name: 'Den', disableExternal: true, disableUsedPercentage: true, files: '', theme: 'dark', color: '#123456' },
      tus: { chunkSize: 1024, retryCount: 0 },
      defaults: { ...current.defaults, locale: 'de', viewMode: 'list', perm: { ...current.defaults.perm, share: false } },
    };
    const response = await putSettings(next);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('200 OK\n');
    expect(await getSettings()).toEqual(next);
    // The in-memory copy every module reads is refreshed too.
    expect(t.app.services.settings.get().branding.name).toBe('Den');
  });

  it('normalises shell words, hook lines, missing hooks and default locale and view mode', async () => {
    const current = await getSettings();
    const response = await putSettings({
      ...current,
      shell: ['  /bin/sh ', '', '   ', '-c'],
      commands: { after_save: ['  echo saved  ', '', '   '], before_copy: null },
      defaults: { ...current.defaults, locale: '', viewMode: '' },
      rules: null,
    });
    expect(response.statusCode).toBe(200);
    const stored = await getSettings();
    expect(stored.shell).toEqual(['/bin/sh', '-c']);
    expect(Object.keys(stored.commands).sort()).toEqual([...HookEvents].sort());
    expect(stored.commands.after_save).toEqual(['echo saved']);
    expect(stored.commands.before_copy).toEqual([]);
    expect(stored.defaults.locale).toBe('en');
    expect(stored.defaults.viewMode).toBe('mosaic');
    expect(stored.rules).toEqual([]);
  });

  it('stores rules with their four fields only', async () => {
    const rule = { regex: false, allow: false, path: '/p', regexp: { raw: '' } };
    const response = await putSettings({ ...(await getSettings()), rules: [{ ...rule, note: 'dropped' }] });
    expect(response.statusCode).toBe(200);
    expect((await getSettings()).rules).toEqual([rule]);
  });

  it('ignores authMethod: it cannot be switched over the API', async () => {
    const current = await getSettings();
    expect((await putSettings({ ...current, authMethod: 'noauth' })).statusCode).toBe(200);
    expect((await getSettings()).authMethod).toBe('json');
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: {} });
    expect(login.statusCode).toBe(403);
  });

  it('refuses invalid values with 400 and keeps the stored settings', async () => {
    const current = await getSettings();
    const invalid: Array<[string, unknown]> = [
      ['minimumPasswordLength 0', { ...current, minimumPasswordLength: 0 }],
      ['minimumPasswordLength -3', { ...current, minimumPasswordLength: -3 }],
      ['minimumPasswordLength 1.5', { ...current, minimumPasswordLength: 1.5 }],
      ['minimumPasswordLength beyond any password', { ...current, minimumPasswordLength: 1025 }],
      ['chunkSize -1', { ...current, tus: { chunkSize: -1, retryCount: 1 } }],
      ['retryCount -1', { ...current, tus: { chunkSize: 1, retryCount: -1 } }],
      ['theme', { ...current, branding: { ...current.branding, theme: 'purple' } }],
      ['regex rule', { ...current, rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(' } }] }],
      ['relative rule', { ...current, rules: [{ regex: false, allow: false, path: 'private', regexp: { raw: '' } }] }],
      ['hook event', { ...current, commands: { ...current.commands, after_lunch: ['echo'] } }],
      ['view mode', { ...current, defaults: { ...current.defaults, viewMode: 'tiles' } }],
      ['share without download', { ...current, defaults: { ...current.defaults, perm: { ...current.defaults.perm, download: false } } }],
      ['home base escaping', { ...current, userHomeBasePath: '/../../etc' }],
      ['missing field', { ...current, defaults: undefined }],
      ['wrong type', { ...current, signup: 'sometimes' }],
      ['array body', [current]],
    ];
    for (const [label, body] of invalid) {
      const response = await putSettings(body);
      expect(response.statusCode, label).toBe(400);
      expect(response.body, label).toMatch(/^400 Bad Request/);
    }
    expect(await getSettings()).toEqual(current);
  });

  it('answers malformed and empty JSON with 400, and bodies over 1 MiB with 413', async () => {
    const headers = { 'content-type': 'application/json', 'x-auth': admin };
    const malformed = await t.app.inject({ method: 'PUT', url: '/api/settings', headers, payload: '{"signup":' });
    expect(malformed.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'PUT', url: '/api/settings', headers, payload: '' });
    expect(empty.statusCode).toBe(400);
    const current = await getSettings();
    const huge = { ...current, branding: { ...current.branding, name: 'x'.repeat(1024 * 1024) } };
    const tooLarge = await t.app.inject({ method: 'PUT', url: '/api/settings', headers, payload: JSON.stringify(huge) });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.body).toBe('413 Request Entity Too Large\n');
    expect(await getSettings()).toEqual(current);
  });

  it('keeps settings across a restart on the same database', async () => {
    const current = await getSettings();
    expect((await putSettings({ ...current, signup: true, branding: { ...current.branding, name: 'Kept' }, shell: ['bash', '-c'] })).statusCode).toBe(200);
    const key = Buffer.from(t.app.services.settings.signingKey()).toString('base64');
    await t.app.close();
    // Same configuration and database: a second start must see the stored settings and key.
    const restarted = await buildApp(t.config);
    try {
      const settings = restarted.services.settings.get();
      expect(settings.signup).toBe(true);
      expect(settings.branding.name).toBe('Kept');
      expect(settings.shell).toEqual(['bash', '-c']);
      expect(Buffer.from(restarted.services.settings.signingKey()).toString('base64')).toBe(key);
      // A token issued before the restart is still valid.
      const response = await restarted.inject({ method: 'GET', url: '/api/settings', headers: { 'x-auth': admin } });
      expect(response.statusCode).toBe(200);
    } finally {
      await restarted.close();
      t.app = await buildApp(t.config);
    }
  });
});
