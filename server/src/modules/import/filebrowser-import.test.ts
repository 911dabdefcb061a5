import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { resolveConfig } from '../../config.js';
import { openDatabase } from '../../storage/db.js';
import { testDatabase } from '../../test-support/postgres.js';
import { idKey, stormTree, writeBolt } from '../../test-support/bolt-writer.js';
import { readFilebrowserSource } from './filebrowser-source.js';
import { describeServer, planImport } from './filebrowser-mapping.js';
import { applyImport, ImportConflictError, type ImportOptions } from './filebrowser-import.js';

const fixtures = fileURLToPath(new URL('../../../../test-fixtures/filebrowser/', import.meta.url));
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-fb-import-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
let counter = 0;

function workspace() {
  const dir = path.join(base, String(++counter));
  const root = path.join(dir, 'root');
  fs.mkdirSync(root, { recursive: true });
  return { dir, root, database: path.join(dir, 'burrow.db') };
}

async function importFile(source: string, database: string, options: Partial<ImportOptions> = {}) {
  const plan = planImport(readFilebrowserSource(source));
  const db = await openDatabase(await testDatabase(database));
  try {
    return { plan, report: await applyImport(db, plan, { merge: false, dryRun: false, ...options }) };
  } finally {
    await db.destroy();
  }
}

/** Starts the real server on a database and root, listening on 127.0.0.1. */
async function serveOn(database: string, root: string) {
  const config = resolveConfig({ root, database: await testDatabase(database), cacheDir: path.join(path.dirname(database), 'cache'), webDist: path.join(base, 'no-web'), logLevel: 'silent', port: 0 });
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    fetch: (url: string, init?: RequestInit) => fetch(origin + url, init),
    async login(username: string, password: string) {
      return fetch(origin + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
    },
    close: () => app.close(),
  };
}

const hash = (password: string) => bcrypt.hashSync(password, 4);

function fbUser(id: number, username: string, password: string, extra: Record<string, unknown> = {}) {
  return {
    key: idKey(id),
    value: {
      id,
      username,
      password: hash(password),
      scope: '.',
      locale: 'en',
      lockPassword: false,
      viewMode: 'list',
      singleClick: false,
      perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true },
      commands: [],
      sorting: { by: 'name', asc: true },
      rules: [],
      hideDotfiles: false,
      dateFormat: false,
      ...extra,
    },
  };
}

const SETTINGS = JSON.parse(
  '{"key":"a2V5","signup":true,"createUserDir":true,"userHomeBasePath":"/homes","minimumPasswordLength":8,"defaults":{"scope":".","locale":"fr","viewMode":"list","singleClick":true,"sorting":{"by":"size","asc":true},"perm":{"admin":false,"execute":false,"create":true,"rename":false,"modify":true,"delete":false,"share":true,"download":true},"commands":["ls"],"hideDotfiles":true,"dateFormat":true},"authMethod":"json","branding":{"name":"Den","disableExternal":false,"disableUsedPercentage":true,"files":"/brand","theme":"dark","color":"#123456"},"tus":{"chunkSize":1048576,"retryCount":3},"commands":{"after_upload":["echo $FILE"],"before_save":[]},"shell":["/bin/sh","-c"],"rules":[{"regex":true,"allow":false,"path":"","regexp":{"raw":"\\\\.secret$"}},{"regex":false,"allow":false,"path":"/private","regexp":null}]}',
);
const SERVER = { root: '/srv', baseURL: '/files/', socket: '', tlsKey: '', tlsCert: '', port: '8081', address: '', log: 'stdout', enableThumbnails: true, resizePreview: false, enableExec: true, typeDetectionByHeader: false, authHook: '', tokenExpirationTime: '3h0m0s' };

describe('importing the databases filebrowser wrote', () => {
  it('branded.db: the admin logs in over HTTP with the old password and finds every preference and setting', async () => {
    const { root, database } = workspace();
    const { report, plan } = await importFile(path.join(fixtures, 'branded.db'), database, { root });
    expect(report.users).toEqual([{ username: 'admin', id: 1, action: 'create', admin: true }]);
    expect(report.settings).toBe(true);
    expect(describeServer(plan).env).toEqual([
      'BURROW_ROOT=/srv',
      'BURROW_ADDRESS=0.0.0.0',
      'BURROW_PORT=80',
      'BURROW_ENABLE_THUMBS=false',
      'BURROW_RESIZE_PREVIEW=false',
      'BURROW_ENABLE_EXEC=false',
    ]);
    const server = await serveOn(database, root);
    try {
      expect((await server.login('admin', 'wrong-password')).status).toBe(403);
      const login = await server.login('admin', 'admin');
      expect(login.status).toBe(200);
      const token = await login.text();
      const auth = { headers: { 'x-auth': token } };
      const me = await (await server.fetch('/api/users/1', auth)).json();
      expect(me).toMatchObject({ username: 'admin', scope: '/', viewMode: 'mosaic', hideDotfiles: true, dateFormat: true, sorting: { by: 'name', asc: false }, lockPassword: false });
      const settings = await (await server.fetch('/api/settings', auth)).json();
      expect(settings.branding).toEqual({ name: 'Penta CM', disableExternal: true, disableUsedPercentage: false, files: '/branding', theme: 'light', color: '' });
      // The live settings record, not the older copy in a freed page (which allowed sharing).
      expect(settings.defaults.perm).toMatchObject({ execute: false, share: false, download: false });
      expect(settings.shell).toEqual([]);
      expect(settings.userHomeBasePath).toBe('/users');
    } finally {
      await server.close();
    }
  });

  it('plain.db: default settings, root /srv, admin with password admin', async () => {
    const { root, database } = workspace();
    const { plan } = await importFile(path.join(fixtures, 'plain.db'), database, { root });
    expect(plan.server).toContainEqual({ key: 'root', flag: '--root', value: '/srv', from: 'server.root' });
    expect(plan.server).toContainEqual({ key: 'address', flag: '--address', value: '0.0.0.0', from: 'server.address' });
    expect(plan.settings!.branding.name).toBe('');
    expect(plan.settings!.defaults.perm.share).toBe(true);
    const server = await serveOn(database, root);
    try {
      expect((await server.login('admin', 'admin')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('importing share links from a written filebrowser database', () => {
  function sharesDatabase(dir: string) {
    const file = path.join(dir, 'filebrowser.db');
    const now = Math.floor(Date.now() / 1000);
    fs.writeFileSync(
      file,
      writeBolt(
        stormTree({
          types: {
            User: [
              fbUser(1, 'admin', 'admin-old-pass', { perm: { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true } }),
              fbUser(7, 'alice', 'alice-old-pass', { scope: './users/alice' }),
            ],
            Link: [
              { key: 'fileLink', value: { hash: 'fileLink', path: '/docs/report.txt', userID: 7, expire: 0 } },
              { key: 'dirNoSlash', value: { hash: 'dirNoSlash', path: '/photos', userID: 7, expire: now + 3600 } },
              {
                key: 'protected',
                value: { hash: 'protected', path: '/photos/', userID: 7, expire: 0, password_hash: hash('link-pass'), token: 'old-token-from-filebrowser' },
              },
              { key: 'expired1', value: { hash: 'expired1', path: '/docs/report.txt', userID: 7, expire: now - 60 } },
              { key: 'orphan01', value: { hash: 'orphan01', path: '/x', userID: 99, expire: 0 } },
            ],
          },
          config: { settings: SETTINGS, server: SERVER, auther: { header: 'X-Remote-User' } },
        }),
      ),
    );
    return file;
  }

  function files(root: string) {
    fs.mkdirSync(path.join(root, 'users/alice/docs'), { recursive: true });
    fs.mkdirSync(path.join(root, 'users/alice/photos'), { recursive: true });
    fs.writeFileSync(path.join(root, 'users/alice/docs/report.txt'), 'quarterly numbers');
    fs.writeFileSync(path.join(root, 'users/alice/photos/cat.jpg'), 'meow');
  }

  it('every link opens as before: open file and folder links, and a protected one by password and by token', async () => {
    const { dir, root, database } = workspace();
    files(root);
    const { plan, report } = await importFile(sharesDatabase(dir), database, { root });
    expect(report.shares.map((share) => [share.hash, share.path, share.owner])).toEqual([
      ['dirNoSlash', '/photos/', 'alice'],
      ['fileLink', '/docs/report.txt', 'alice'],
      ['protected', '/photos/', 'alice'],
    ]);
    expect(plan.notes.join('\n')).toMatch(/"expired1": expired/);
    expect(plan.notes.join('\n')).toMatch(/"orphan01": its owner \(user id 99\)/);
    const server = await serveOn(database, root);
    try {
      const file = await server.fetch('/api/public/dl/fileLink');
      expect(file.status).toBe(200);
      expect(await file.text()).toBe('quarterly numbers');
      const folder = await server.fetch('/api/public/share/dirNoSlash');
      expect(folder.status).toBe(200);
      expect((await folder.json()).items.map((item: { name: string }) => item.name)).toEqual(['cat.jpg']);

      expect((await server.fetch('/api/public/share/protected')).status).toBe(401);
      expect((await server.fetch('/api/public/share/protected', { headers: { 'X-SHARE-PASSWORD': 'wrong' } })).status).toBe(401);
      const byPassword = await server.fetch('/api/public/share/protected', { headers: { 'X-SHARE-PASSWORD': 'link-pass' } });
      expect(byPassword.status).toBe(200);
      expect((await byPassword.json()).token).toBe('old-token-from-filebrowser');
      const byToken = await server.fetch('/api/public/dl/protected/cat.jpg?token=old-token-from-filebrowser');
      expect(byToken.status).toBe(200);
      expect(await byToken.text()).toBe('meow');
      expect((await server.fetch('/api/public/dl/expired1')).status).toBe(404);

      // alice keeps her id, scope and password.
      const login = await server.login('alice', 'alice-old-pass');
      expect(login.status).toBe(200);
      const admin = await (await server.login('admin', 'admin-old-pass')).text();
      const alice = await (await server.fetch('/api/users/7', { headers: { 'x-auth': admin } })).json();
      expect(alice).toMatchObject({ id: 7, username: 'alice', scope: '/users/alice', viewMode: 'list', sorting: { by: 'name', asc: true } });
      const settings = await (await server.fetch('/api/settings', { headers: { 'x-auth': admin } })).json();
      expect(settings).toMatchObject({
        signup: true,
        createUserDir: true,
        userHomeBasePath: '/homes',
        minimumPasswordLength: 8,
        authMethod: 'json',
        branding: { name: 'Den', disableUsedPercentage: true, files: '/brand', theme: 'dark', color: '#123456' },
        tus: { chunkSize: 1048576, retryCount: 3 },
        shell: ['/bin/sh', '-c'],
      });
      expect(settings.defaults).toMatchObject({ locale: 'fr', viewMode: 'list', singleClick: true, sorting: { by: 'size', asc: true }, commands: ['ls'], hideDotfiles: true, dateFormat: true });
      expect(settings.commands.after_upload).toEqual(['echo $FILE']);
      expect(settings.rules).toEqual([
        { regex: true, allow: false, path: '', regexp: { raw: '\\.secret$' } },
        { regex: false, allow: false, path: '/private', regexp: { raw: '' } },
      ]);
    } finally {
      await server.close();
    }
    expect(describeServer(plan).env).toEqual(
      expect.arrayContaining(['BURROW_BASE_URL=/files', 'BURROW_PORT=8081', 'BURROW_ENABLE_EXEC=true', 'BURROW_TOKEN_EXPIRATION=10800s']),
    );
  });

  it('a second run refuses the duplicates and writes nothing; --merge updates them', async () => {
    const { dir, root, database } = workspace();
    files(root);
    const source = sharesDatabase(dir);
    await importFile(source, database, { root });
    // A later filebrowser database: alice changed her password and a new user joined.
    const later = path.join(dir, 'later.db');
    fs.writeFileSync(
      later,
      writeBolt(
        stormTree({
          types: {
            User: [fbUser(7, 'alice', 'alice-new-pass', { scope: './users/alice' }), fbUser(8, 'carol', 'carol-pass')],
            Link: [{ key: 'fileLink', value: { hash: 'fileLink', path: '/photos/cat.jpg', userID: 7, expire: 0 } }],
          },
        }),
      ),
    );
    await expect(importFile(later, database, { root })).rejects.toThrow(ImportConflictError);
    await expect(importFile(later, database, { root })).rejects.toThrow(/user "alice"; share link "fileLink".*--merge/);
    const db = await openDatabase(await testDatabase(database));
    try {
      expect((await db.selectFrom('users').select('username').orderBy('id').execute()).map((row) => row.username)).toEqual(['admin', 'alice']);
    } finally {
      await db.destroy();
    }
    const { report } = await importFile(later, database, { root, merge: true });
    expect(report.users).toEqual([
      { username: 'alice', id: 7, action: 'update', admin: false },
      { username: 'carol', id: 8, action: 'create', admin: false },
    ]);
    expect(report.shares).toMatchObject([{ hash: 'fileLink', path: '/photos/cat.jpg', action: 'update' }]);
    const server = await serveOn(database, root);
    try {
      expect((await server.login('alice', 'alice-old-pass')).status).toBe(403);
      expect((await server.login('alice', 'alice-new-pass')).status).toBe(200);
      expect((await server.login('carol', 'carol-pass')).status).toBe(200);
      expect(await (await server.fetch('/api/public/dl/fileLink')).text()).toBe('meow');
      // The settings of the first import stay: the later file held none.
      expect((await server.login('admin', 'admin-old-pass')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('a dry run reports the same and writes nothing', async () => {
    const { dir, root, database } = workspace();
    files(root);
    const source = sharesDatabase(dir);
    const db = await openDatabase(await testDatabase(database));
    const before = await db.selectFrom('settings').selectAll().execute();
    await db.destroy();
    const { report } = await importFile(source, database, { root, dryRun: true });
    expect(report.users.map((user) => user.username)).toEqual(['admin', 'alice']);
    expect(report.shares).toHaveLength(3);
    const after = await openDatabase(await testDatabase(database));
    try {
      expect(await after.selectFrom('users').selectAll().execute()).toEqual([]);
      expect(await after.selectFrom('shares').selectAll().execute()).toEqual([]);
      expect(await after.selectFrom('settings').selectAll().execute()).toEqual(before);
    } finally {
      await after.destroy();
    }
  });

  it('a user whose id is taken in Burrow gets a new one, and their links follow', async () => {
    const { dir, root, database } = workspace();
    files(root);
    const db = await openDatabase(await testDatabase(database));
    await db
      .insertInto('users')
      .values({ id: 7, username: 'someone-else', password_hash: hash('x'), scope: '/', locale: 'en', view_mode: 'list', single_click: 0, redirect_after_copy_move: 1, hide_dotfiles: 0, date_format: 0, ace_editor_theme: '', sorting_by: 'name', sorting_asc: 0, lock_password: 0, perm: '{}', commands: '[]', rules: '[]', tokens_valid_after: 0, updated_at: 0, created_at: 0 })
      .execute();
    await db.destroy();
    const { report } = await importFile(sharesDatabase(dir), database, { root });
    const alice = report.users.find((user) => user.username === 'alice')!;
    expect(alice).toMatchObject({ action: 'create', previousId: 7 });
    expect(alice.id).not.toBe(7);
    expect(new Set(report.shares.map((share) => share.owner))).toEqual(new Set(['alice']));
    const server = await serveOn(database, root);
    try {
      expect(await (await server.fetch('/api/public/dl/fileLink')).text()).toBe('quarterly numbers');
    } finally {
      await server.close();
    }
  });
});

describe('mapping what cannot be carried over as it was', () => {
  function databaseWith(dir: string, users: ReturnType<typeof fbUser>[], settings: Record<string, unknown> = SETTINGS) {
    const file = path.join(dir, `fb-${counter}.db`);
    fs.writeFileSync(file, writeBolt(stormTree({ types: { User: users }, config: { settings, server: SERVER, auther: {} } })));
    return file;
  }

  it('refuses a deny rule JavaScript cannot compile, and leaves out such an allow rule with a note', async () => {
    const { dir, database } = workspace();
    const denying = databaseWith(dir, [fbUser(1, 'admin', 'pw', { rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(?i)\\.bak$' } }] })]);
    await expect(importFile(denying, database)).rejects.toThrow(/deny rule "\(\?i\)\\\\.bak\$" is not a valid JavaScript regular expression/);
    const allowing = databaseWith(dir, [fbUser(1, 'admin', 'pw', { rules: [{ regex: true, allow: true, path: '', regexp: { raw: '(?i)\\.bak$' } }] })]);
    const { plan } = await importFile(allowing, database);
    expect(plan.users[0]!.record.rules).toEqual([]);
    expect(plan.notes.join('\n')).toMatch(/allow rule .* left out/);
  });

  it('takes proxy authentication over, its header printed as configuration', () => {
    const { dir } = workspace();
    const file = path.join(dir, 'proxy.db');
    fs.writeFileSync(file, writeBolt(stormTree({ types: { User: [fbUser(1, 'admin', 'pw')] }, config: { settings: { ...SETTINGS, authMethod: 'proxy' }, server: SERVER, auther: { header: 'X-Remote-User' } } })));
    const plan = planImport(readFilebrowserSource(file));
    expect(plan.settings!.authMethod).toBe('proxy');
    expect(describeServer(plan)).toMatchObject({ env: expect.arrayContaining(['BURROW_PROXY_HEADER=X-Remote-User']), flags: expect.arrayContaining(['--proxy-header X-Remote-User']) });
    expect(plan.notes.join('\n')).toMatch(/BURROW_TRUSTED_PROXIES/);
  });

  it('notes an unknown auth method, sharing without download, and a password that is not bcrypt', () => {
    const { dir } = workspace();
    const source = databaseWith(
      dir,
      [fbUser(1, 'admin', 'pw', { perm: { share: true, download: false }, password: 'plain' })],
      { ...SETTINGS, authMethod: 'hook', branding: { ...SETTINGS.branding, theme: 'purple' } },
    );
    const plan = planImport(readFilebrowserSource(source));
    expect(plan.settings!.authMethod).toBe('json');
    expect(plan.settings!.branding.theme).toBe('');
    expect(plan.users[0]!.record.perm.share).toBe(false);
    const notes = plan.notes.join('\n');
    expect(notes).toMatch(/authentication method "hook" does not exist in Burrow/);
    expect(notes).toMatch(/branding theme "purple" is unknown/);
    expect(notes).toMatch(/sharing needs the download permission/);
    expect(notes).toMatch(/not a bcrypt hash/);
  });
});

describe('importing the files filebrowser exports', () => {
  it('reads `config export` as JSON and as YAML (lower-cased names), and `users export` as YAML', async () => {
    const { dir, root, database } = workspace();
    const json = path.join(dir, 'config.json');
    fs.writeFileSync(json, JSON.stringify({ settings: SETTINGS, server: SERVER, auther: { recaptcha: { host: 'https://www.recaptcha.net', key: 'site-key', secret: 'secret-key' } } }, null, 4));
    const fromJson = planImport(readFilebrowserSource(json));
    const yaml = path.join(dir, 'config.txt');
    fs.writeFileSync(
      yaml,
      [
        'settings:',
        '  key: a2V5',
        '  signup: true',
        '  createuserdir: true',
        '  userhomebasepath: /homes',
        '  minimumpasswordlength: 8',
        '  defaults:',
        '    scope: .',
        '    locale: fr',
        '    viewmode: list',
        '    singleclick: true',
        '    sorting: {by: size, asc: true}',
        '    perm: {admin: false, execute: false, create: true, rename: false, modify: true, delete: false, share: true, download: true}',
        '    commands: [ls]',
        '    hidedotfiles: true',
        '    dateformat: true',
        '  authmethod: json',
        '  branding: {name: Den, disableexternal: false, disableusedpercentage: true, files: /brand, theme: dark, color: "#123456"}',
        '  tus: {chunksize: 1048576, retrycount: 3}',
        '  commands:',
        '    after_upload: [echo $FILE]',
        '    before_save: []',
        '  shell: [/bin/sh, -c]',
        '  rules:',
        '  - regex: true',
        '    allow: false',
        '    path: ""',
        '    regexp: {raw: \\.secret$}',
        '  - regex: false',
        '    allow: false',
        '    path: /private',
        '    regexp: null',
        'server:',
        '  root: /srv',
        '  baseurl: /files/',
        '  port: "8081"',
        '  address: ""',
        '  enablethumbnails: true',
        '  enableexec: true',
        '  tokenexpirationtime: 3h0m0s',
        'auther:',
        '  recaptcha: {host: "https://www.recaptcha.net", key: site-key, secret: secret-key}',
      ].join('\n'),
    );
    const fromYaml = planImport(readFilebrowserSource(yaml));
    expect(fromYaml.settings).toEqual(fromJson.settings);
    expect(fromYaml.server).toEqual(fromJson.server);
    expect(describeServer(fromJson).env).toEqual(
      expect.arrayContaining(['BURROW_RECAPTCHA_HOST=https://www.recaptcha.net', 'BURROW_RECAPTCHA_KEY=site-key', 'BURROW_RECAPTCHA_SECRET=secret-key']),
    );

    const users = path.join(dir, 'users.yaml');
    fs.writeFileSync(
      users,
      [
        '- id: 3',
        '  username: dave',
        `  password: ${hash('dave-pass')}`,
        '  scope: /dave',
        '  locale: de',
        '  lockpassword: true',
        '  viewmode: mosaic',
        '  perm: {admin: false, execute: false, create: true, rename: true, modify: false, delete: false, share: false, download: true}',
        '  commands: []',
        '  sorting: {by: modified, asc: false}',
        '  rules: [{regex: false, allow: false, path: /secret, regexp: null}]',
        '  hidedotfiles: true',
        '  dateformat: false',
        '  aceeditortheme: monokai',
        '- id: 1',
        '  username: admin',
        `  password: ${hash('admin-pass')}`,
        '  scope: .',
        '  perm: {admin: true}',
      ].join('\n'),
    );
    const { report, plan } = await importFile(users, database, { root });
    expect(plan.settings).toBeUndefined();
    expect(report.users.map((user) => [user.username, user.id])).toEqual([
      ['dave', 3],
      ['admin', 1],
    ]);
    const server = await serveOn(database, root);
    try {
      const token = await (await server.login('dave', 'dave-pass')).text();
      const admin = await (await server.login('admin', 'admin-pass')).text();
      expect(token).not.toBe('');
      const dave = await (await server.fetch('/api/users/3', { headers: { 'x-auth': admin } })).json();
      expect(dave).toMatchObject({ scope: '/dave', locale: 'de', lockPassword: true, viewMode: 'mosaic', sorting: { by: 'modified', asc: false }, hideDotfiles: true, aceEditorTheme: 'monokai' });
      expect(dave.rules).toEqual([{ regex: false, allow: false, path: '/secret', regexp: { raw: '' } }]);
    } finally {
      await server.close();
    }
  });

  it('refuses files that are neither a filebrowser database nor an export', () => {
    const { dir } = workspace();
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'just: some\nyaml: [1, 2]\n');
    expect(() => readFilebrowserSource(text)).toThrow(/not a filebrowser export/);
    const damaged = path.join(dir, 'damaged.db');
    fs.writeFileSync(damaged, writeBolt(stormTree({ types: { User: [fbUser(1, 'admin', 'pw')] } }), { damageMeta: [0, 1] }));
    expect(() => readFilebrowserSource(damaged)).toThrow(/both meta pages are invalid/);
    expect(() => readFilebrowserSource(path.join(dir, 'missing.db'))).toThrow(/cannot read .*ENOENT/);
  });
});
