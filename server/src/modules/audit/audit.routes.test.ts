import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { AuditEntry, AuditPage } from '@burrow/protocol';
import { ADMIN_PASSWORD, createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

let t: TestApp;
let admin: string;

beforeEach(async () => {
  t = await createTestApp({ trustedProxies: '127.0.0.1' });
  admin = await t.login();
});

afterEach(async () => {
  await t.close();
});

/** Reads the log through the API; entries written after an answer was sent may lag a moment. */
async function audit(query: Record<string, string> = {}, until: (items: AuditEntry[]) => boolean = () => true): Promise<AuditEntry[]> {
  for (let attempt = 0; ; attempt++) {
    const response = await t.request(admin, { method: 'GET', url: '/api/audit', query: { limit: '500', ...query } });
    expect(response.statusCode, response.body).toBe(200);
    const items = (response.json() as AuditPage).items;
    if (until(items) || attempt >= 50) return items;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function find(action: string, match: (entry: AuditEntry) => boolean = () => true): Promise<AuditEntry> {
  const items = await audit({ action }, (list) => list.some(match));
  const entry = items.find(match);
  if (!entry) throw new Error(`no ${action} entry in ${JSON.stringify(items)}`);
  return entry;
}

/** Every text stored in the audit table, to search for secrets. */
async function wholeTable(): Promise<string> {
  await t.app.services.audit.flush();
  const rows = await t.app.services.db.selectFrom('audit_log').selectAll().execute();
  return JSON.stringify(rows);
}

describe('what the audit log records', () => {
  it('logins that worked and failed (with the name tried, never the password), and logouts', async () => {
    const failed = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'wrong-guess-1234' } });
    expect(failed.statusCode).toBe(403);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'mallory', password: 'mallory-guess-99' } });
    expect(unknown.statusCode).toBe(403);
    const token = await t.login();
    expect((await t.request(token, { method: 'POST', url: '/api/logout' })).statusCode).toBe(200);

    const denied = await find('auth.login', (entry) => entry.username === 'mallory');
    expect(denied).toMatchObject({ outcome: 'denied', status: 403, userId: null, client: '127.0.0.1' });
    const wrong = await find('auth.login', (entry) => entry.username === 'admin' && entry.outcome === 'denied');
    expect(wrong.status).toBe(403);
    const ok = await find('auth.login', (entry) => entry.username === 'admin' && entry.outcome === 'ok');
    expect(ok.userId).toBe(1);
    const logout = await find('auth.logout');
    expect(logout).toMatchObject({ username: 'admin', userId: 1, outcome: 'ok', status: 200 });

    const table = await wholeTable();
    for (const secret of ['wrong-guess-1234', 'mallory-guess-99', ADMIN_PASSWORD, token, admin]) expect(table).not.toContain(secret);
  });

  it('takes the client address through trusted proxies only', async () => {
    await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'x-forwarded-for': '203.0.113.9' }, payload: { username: 'proxied', password: 'x-password-123' } });
    expect((await find('auth.login', (entry) => entry.username === 'proxied')).client).toBe('203.0.113.9');

    const direct = await createTestApp();
    try {
      await direct.app.inject({ method: 'POST', url: '/api/login', headers: { 'x-forwarded-for': '203.0.113.9' }, payload: { username: 'spoofer', password: 'x-password-123' } });
      const token = await direct.login();
      const response = await direct.request(token, { method: 'GET', url: '/api/audit', query: { user: 'spoofer' } });
      const [entry] = (response.json() as AuditPage).items;
      expect(entry?.client).toBe('127.0.0.1');
    } finally {
      await direct.close();
    }
  });

  it('file actions through the API, with scope paths, the actor and the client', async () => {
    await makeUser(t, { username: 'bob', scope: '/bob' });
    const bob = await loginAs(t, 'bob');
    const headers = { 'x-forwarded-for': '198.51.100.7' };
    const call = (method: string, url: string, payload?: string) => t.request(bob, { method: method as 'POST', url, headers, ...(payload !== undefined ? { payload } : {}) });
    expect((await call('POST', '/api/resources/docs/')).statusCode).toBe(200);
    expect((await call('POST', '/api/resources/docs/a.txt', 'hello')).statusCode).toBe(200);
    expect((await call('PUT', '/api/resources/docs/a.txt', 'hello again')).statusCode).toBe(200);
    expect((await call('PATCH', `/api/resources/docs/a.txt?action=rename&destination=${encodeURIComponent('/docs/b.txt')}`)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/resources/docs/b.txt?action=copy&destination=${encodeURIComponent('/c.txt')}`)).statusCode).toBe(200);
    expect((await call('POST', '/api/resources/archive/')).statusCode).toBe(200);
    expect((await call('PATCH', `/api/resources/c.txt?action=rename&destination=${encodeURIComponent('/archive/c.txt')}`)).statusCode).toBe(200);
    expect((await call('DELETE', '/api/resources/docs/b.txt')).statusCode).toBe(204);

    const mine = await audit({ user: 'bob', action: 'file.' }, (items) => items.length >= 8);
    const summary = mine.map((entry) => [entry.action, entry.path, entry.destination]).reverse();
    expect(summary).toEqual([
      ['file.mkdir', '/docs', ''],
      ['file.upload', '/docs/a.txt', ''],
      ['file.upload', '/docs/a.txt', ''],
      ['file.rename', '/docs/a.txt', '/docs/b.txt'],
      ['file.copy', '/docs/b.txt', '/c.txt'],
      ['file.mkdir', '/archive', ''],
      ['file.move', '/c.txt', '/archive/c.txt'],
      ['file.delete', '/docs/b.txt', ''],
    ]);
    for (const entry of mine) expect(entry).toMatchObject({ username: 'bob', client: '198.51.100.7', outcome: 'ok' });
    expect(mine.find((entry) => entry.action === 'file.upload' && entry.details.overwrite)).toBeDefined();
  });

  it('refused and failed file actions, with their status', async () => {
    await makeUser(t, { username: 'reader', perm: { create: false, delete: false } });
    const reader = await loginAs(t, 'reader');
    expect((await t.request(reader, { method: 'POST', url: '/api/resources/nope.txt', payload: 'x' })).statusCode).toBe(403);
    expect((await t.request(reader, { method: 'DELETE', url: '/api/resources/missing.txt' })).statusCode).toBe(403);
    expect((await t.request(admin, { method: 'DELETE', url: '/api/resources/missing.txt' })).statusCode).toBe(404);

    expect(await find('file.upload', (entry) => entry.username === 'reader')).toMatchObject({ path: '/nope.txt', outcome: 'denied', status: 403 });
    expect(await find('file.delete', (entry) => entry.username === 'reader')).toMatchObject({ path: '/missing.txt', outcome: 'denied', status: 403 });
    expect(await find('file.delete', (entry) => entry.username === 'admin')).toMatchObject({ path: '/missing.txt', outcome: 'failed', status: 404 });
  });

  it('tus uploads when they complete', async () => {
    const created = await t.request(admin, { method: 'POST', url: '/api/tus/big.bin?override=false', headers: { 'upload-length': '5', 'tus-resumable': '1.0.0' } });
    expect(created.statusCode).toBe(201);
    const patch = await t.request(admin, {
      method: 'PATCH',
      url: '/api/tus/big.bin',
      headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'tus-resumable': '1.0.0' },
      payload: Buffer.from('12345'),
    });
    expect(patch.statusCode).toBe(204);
    expect(await find('file.upload', (entry) => entry.path === '/big.bin')).toMatchObject({ username: 'admin', outcome: 'ok', details: { via: 'tus' } });
  });

  it('shares: creation, use of a protected link with its password, public downloads and deletion', async () => {
    fs.mkdirSync(path.join(t.root, 'pub'));
    fs.writeFileSync(path.join(t.root, 'pub', 'report.txt'), 'numbers');
    const created = await t.request(admin, { method: 'POST', url: '/api/share/pub', payload: JSON.stringify({ password: 'link-secret-777', expires: '2', unit: 'hours' }) });
    expect(created.statusCode).toBe(200);
    const share = created.json() as { hash: string; token: string };

    expect((await t.app.inject({ method: 'GET', url: `/api/public/share/${share.hash}`, headers: { 'x-share-password': 'not-it-0000' } })).statusCode).toBe(401);
    const opened = await t.app.inject({ method: 'GET', url: `/api/public/share/${share.hash}`, headers: { 'x-share-password': 'link-secret-777' } });
    expect(opened.statusCode).toBe(200);
    const token = (opened.json() as { token: string }).token;
    expect((await t.app.inject({ method: 'GET', url: `/api/public/dl/${share.hash}/report.txt?token=${token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/public/dl/${share.hash}?token=${token}&algo=zip` })).statusCode).toBe(200);
    expect((await t.request(admin, { method: 'DELETE', url: `/api/share/${share.hash}` })).statusCode).toBe(200);

    expect(await find('share.create')).toMatchObject({ path: '/pub', username: 'admin', details: { protected: true, expires: '2hours' } });
    expect(await find('share.open', (entry) => entry.outcome === 'denied')).toMatchObject({ username: 'anonymous', userId: null, path: '/pub/', status: 401 });
    expect(await find('share.open', (entry) => entry.outcome === 'ok')).toMatchObject({ username: 'anonymous', path: '/pub/' });
    expect(await find('share.download', (entry) => entry.path === '/pub/report.txt')).toMatchObject({ username: 'anonymous', outcome: 'ok' });
    expect(await find('share.download', (entry) => entry.details.archive === true)).toMatchObject({ path: '/pub/' });
    expect(await find('share.delete')).toMatchObject({ path: '/pub/', username: 'admin', outcome: 'ok' });

    const table = await wholeTable();
    for (const secret of ['link-secret-777', 'not-it-0000', share.hash, share.token, token]) expect(table).not.toContain(secret);
  });

  it('settings changes by key, never their values', async () => {
    const current = (await t.request(admin, { method: 'GET', url: '/api/settings' })).json() as Record<string, unknown>;
    const branding = { ...(current.branding as object), name: 'Secret Garden Files' };
    expect((await t.request(admin, { method: 'PUT', url: '/api/settings', payload: { ...current, branding, signup: true } })).statusCode).toBe(200);
    const entry = await find('settings.update');
    expect((entry.details.keys as string[]).sort()).toEqual(['branding', 'signup']);
    expect(await wholeTable()).not.toContain('Secret Garden');
  });

  it('users created, updated and deleted, naming the fields but never passwords or hashes', async () => {
    const created = await t.request(admin, {
      method: 'POST',
      url: '/api/users',
      payload: { what: 'user', which: [], current_password: ADMIN_PASSWORD, data: { username: 'carol', password: 'carol-new-pass-123', scope: '/carol' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const carol = (await t.app.services.usersRepository.findByUsername('carol'))!;
    const updated = await t.request(admin, {
      method: 'PUT',
      url: `/api/users/${carol.id}`,
      payload: { what: 'user', which: ['password'], current_password: ADMIN_PASSWORD, data: { id: carol.id, password: 'carol-next-pass-456' } },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const removed = await t.request(admin, { method: 'DELETE', url: `/api/users/${carol.id}`, payload: { current_password: ADMIN_PASSWORD } });
    expect(removed.statusCode, removed.body).toBe(200);

    expect(await find('user.create')).toMatchObject({ username: 'admin', outcome: 'ok', details: { target: 'carol', admin: false } });
    expect(await find('user.update')).toMatchObject({ details: { target: 'carol', targetId: carol.id, fields: ['password'] } });
    expect(await find('user.delete')).toMatchObject({ details: { target: 'carol', targetId: carol.id } });
    const table = await wholeTable();
    for (const secret of ['carol-new-pass-123', 'carol-next-pass-456', ADMIN_PASSWORD, carol.passwordHash]) expect(table).not.toContain(secret);
    expect(table).not.toMatch(/\$argon2|\$2[abxy]\$/);
  });

  it('trash restores', async () => {
    fs.writeFileSync(path.join(t.root, 'keep.txt'), 'keep');
    expect((await t.request(admin, { method: 'DELETE', url: '/api/resources/keep.txt' })).statusCode).toBe(204);
    const list = (await t.request(admin, { method: 'GET', url: '/api/trash' })).json() as { items: { id: string }[] };
    expect((await t.request(admin, { method: 'POST', url: `/api/trash/${list.items[0]!.id}/restore` })).statusCode).toBe(200);
    expect((await t.request(admin, { method: 'POST', url: '/api/trash/nothere0000/restore' })).statusCode).toBeGreaterThanOrEqual(400);
    expect(await find('trash.restore', (entry) => entry.outcome === 'ok')).toMatchObject({ path: '/keep.txt', username: 'admin' });
    expect((await find('trash.restore', (entry) => entry.outcome !== 'ok')).status).toBeGreaterThanOrEqual(400);
  });
});

describe('what the audit log records from other modules', () => {
  it('API tokens created and revoked (by name and id, never the secret), two-factor resets and WebDAV writes', async () => {
    const created = await t.request(admin, { method: 'POST', url: '/api/tokens', payload: { name: 'backup job', preset: 'readOnly' } });
    expect(created.statusCode, created.body).toBe(201);
    const { id, token } = created.json() as { id: string; token: string };
    expect((await t.request(admin, { method: 'DELETE', url: `/api/tokens/${id}` })).statusCode).toBeLessThan(300);
    await makeUser(t, { username: 'dana' });
    const dana = (await t.app.services.usersRepository.findByUsername('dana'))!;
    expect((await t.request(admin, { method: 'DELETE', url: `/api/users/${dana.id}/two-factor` })).statusCode).toBeLessThan(300);

    const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
    expect((await t.app.inject({ method: 'MKCOL', url: '/dav/webdav-folder', headers: { authorization: basic } })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'PUT', url: '/dav/webdav-folder/note.txt', headers: { authorization: basic }, payload: 'dav' })).statusCode).toBe(201);

    expect(await find('token.create')).toMatchObject({ username: 'admin', outcome: 'ok', details: { name: 'backup job' } });
    expect(await find('token.revoke')).toMatchObject({ username: 'admin', outcome: 'ok', details: { id } });
    expect(await find('twofactor.reset')).toMatchObject({ username: 'admin', details: { target: 'dana', targetId: dana.id } });
    expect(await find('file.mkdir', (entry) => entry.path === '/webdav-folder')).toMatchObject({ details: { via: 'webdav' } });
    expect(await find('file.upload', (entry) => entry.path === '/webdav-folder/note.txt')).toMatchObject({ username: 'admin', details: { via: 'webdav' } });
    const table = await wholeTable();
    expect(table).not.toContain(token);
    expect(table).not.toContain(ADMIN_PASSWORD);
  });
});

describe('two-factor codes', () => {
  it('enrolment, a login waiting for its code and turning codes off, never the secret or a code', async () => {
    await makeUser(t, { username: 'erin' });
    const session = await loginAs(t, 'erin');
    const code = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const { secret } = (await t.request(session, { method: 'POST', url: '/api/two-factor/enrol' })).json() as { secret: string };
    const firstCode = await code(secret);
    const confirmed = await t.request(session, { method: 'POST', url: '/api/two-factor/confirm', payload: { code: firstCode } });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'erin', password: 'erin-password-1' } });
    expect(login.statusCode).toBe(401);
    const challenge = String(login.headers['x-burrow-two-factor-challenge']);
    const secondStep = await t.app.inject({ method: 'POST', url: '/api/login/two-factor', payload: { challenge, code: recoveryCodes[1] } });
    expect(secondStep.statusCode, secondStep.body).toBe(200);
    const disabled = await t.request(session, { method: 'POST', url: '/api/two-factor/disable', payload: { code: recoveryCodes[0] } });
    expect(disabled.statusCode).toBeLessThan(300);

    expect(await find('twofactor.enrol')).toMatchObject({ username: 'erin', outcome: 'ok' });
    expect(await find('auth.login', (entry) => entry.username === 'erin' && entry.status === 401)).toMatchObject({ details: { secondFactor: 'required' } });
    expect(await find('auth.login', (entry) => entry.details.step === 'two-factor')).toMatchObject({ username: 'erin', userId: expect.any(Number), outcome: 'ok' });
    expect(await find('twofactor.disable')).toMatchObject({ username: 'erin', outcome: 'ok' });
    const table = await wholeTable();
    for (const secretText of [secret, firstCode, ...recoveryCodes, challenge, secondStep.body]) expect(table).not.toContain(secretText);
  });
});

describe('GET /api/audit', () => {
  async function seed(count: number): Promise<void> {
    const service = t.app.services.audit;
    for (let index = 0; index < count; index++) {
      await service.record({ actor: { id: 9, username: index % 2 ? 'odd' : 'even' }, client: '10.0.0.1', action: 'file.upload', path: `/f${index}.txt`, outcome: index % 3 ? 'ok' : 'failed', status: 200 });
    }
  }

  it('pages newest first with a cursor, and filters by user, action prefix, path, outcome and time', async () => {
    await seed(25);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const response = await t.request(admin, { method: 'GET', url: '/api/audit', query: { action: 'file.upload', limit: '10', ...(cursor ? { cursor } : {}) } });
      const page = response.json() as AuditPage;
      seen.push(...page.items.map((entry) => entry.path));
      cursor = page.next;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, index) => `/f${24 - index}.txt`));

    expect((await audit({ user: 'odd', action: 'file.' })).length).toBe(12);
    expect((await audit({ path: 'f2' })).map((entry) => entry.path).sort()).toEqual(['/f2.txt', '/f20.txt', '/f21.txt', '/f22.txt', '/f23.txt', '/f24.txt']);
    expect((await audit({ outcome: 'failed', action: 'file.upload' })).length).toBe(9);
    expect((await audit({ to: '2000-01-01' })).length).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await audit({ from: today, to: today, action: 'file.upload' })).length).toBe(25);
  });

  it('answers 400 for malformed filters and 403 for anyone but admins', async () => {
    const malformed: Record<string, string>[] = [{ from: 'yesterday' }, { cursor: 'abc' }, { action: 'DROP TABLE' }, { outcome: 'maybe' }, { limit: '-1' }];
    for (const query of malformed) {
      expect((await t.request(admin, { method: 'GET', url: '/api/audit', query })).statusCode, JSON.stringify(query)).toBe(400);
    }
    await makeUser(t, { username: 'bob' });
    const bob = await loginAs(t, 'bob');
    for (const url of ['/api/audit', '/api/audit/export?format=csv', '/api/audit/settings']) {
      expect((await t.request(bob, { method: 'GET', url })).statusCode, url).toBe(403);
      expect((await t.request(undefined, { method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await t.request(bob, { method: 'PUT', url: '/api/audit/settings', payload: { retentionDays: 1, maxEntries: 1000 } })).statusCode).toBe(403);
  });
});

/** A minimal RFC 4180 reader (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  return rows;
}

describe('GET /api/audit/export', () => {
  it('streams CSV with every cell quoted and formulas defused, and NDJSON, with the filters applied', async () => {
    for (const name of ['=HYPERLINK("http://evil")', '+1+1', '-2', '@SUM(A1)', 'plain, "quoted"']) {
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: name, password: 'nope-nope-123' } });
    }
    await audit({ action: 'auth.login' }, (items) => items.length >= 6);

    const csv = await t.request(admin, { method: 'GET', url: '/api/audit/export', query: { format: 'csv', action: 'auth.login', outcome: 'denied' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(csv.body);
    expect(rows[0]).toEqual(['time', 'user_id', 'username', 'client', 'action', 'path', 'destination', 'outcome', 'status', 'details']);
    const names = rows.slice(1).map((row) => row[2]);
    expect(names).toEqual(['plain, "quoted"', "'@SUM(A1)", "'-2", "'+1+1", `'=HYPERLINK("http://evil")`]);
    for (const row of rows.slice(1)) expect(row).toHaveLength(10);
    for (const line of csv.body.trim().split('\r\n')) expect(line.startsWith('"')).toBe(true);

    const ndjson = await t.request(admin, { method: 'GET', url: '/api/audit/export', query: { format: 'ndjson', action: 'auth.login' } });
    expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const entries = ndjson.body.trim().split('\n').map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.at(-1)).toMatchObject({ username: 'admin', outcome: 'ok' });
    expect(entries.filter((entry) => entry.outcome === 'denied').map((entry) => entry.username)).toEqual(['plain, "quoted"', '@SUM(A1)', '-2', '+1+1', '=HYPERLINK("http://evil")']);
    expect(entries.every((entry) => entry.action === 'auth.login')).toBe(true);

    expect((await t.request(admin, { method: 'GET', url: '/api/audit/export', query: { format: 'xml' } })).statusCode).toBe(400);
  });

  it('exports more entries than one batch in order', async () => {
    const service = t.app.services.audit;
    for (let index = 0; index < 520; index++) {
      void service.record({ actor: { id: 1, username: 'admin' }, client: '', action: 'file.delete', path: `/n${index}`, outcome: 'ok' });
    }
    const response = await t.request(admin, { method: 'GET', url: '/api/audit/export', query: { format: 'ndjson', action: 'file.delete' } });
    const lines = response.body.trim().split('\n');
    expect(lines).toHaveLength(520);
    expect(new Set(lines.map((line) => (JSON.parse(line) as AuditEntry).id)).size).toBe(520);
  });
});

describe('retention', () => {
  it('sweeps entries past the retention and the oldest beyond the bound', async () => {
    const service = t.app.services.audit;
    const { db } = t.app.services;
    const day = 86_400_000;
    const row = (time: number, path: string) => ({ time, user_id: 1, username: 'admin', client: '', action: 'file.delete', path, destination: '', outcome: 'ok', status: 0, details: '{}' });
    await db.insertInto('audit_log').values([row(Date.now() - 100 * day, '/ancient'), row(Date.now() - 89 * day, '/recent')]).execute();
    await service.sweep();
    const paths = (await db.selectFrom('audit_log').select('path').execute()).map((entry) => entry.path);
    expect(paths).toContain('/recent');
    expect(paths).not.toContain('/ancient');

    const settings = await t.request(admin, { method: 'PUT', url: '/api/audit/settings', payload: { retentionDays: 30, maxEntries: 1000 } });
    expect(settings.statusCode).toBe(200);
    await db.insertInto('audit_log').values(Array.from({ length: 1100 }, (_, index) => row(Date.now() - 1000 + index, `/bulk${index}`))).execute();
    await service.sweep();
    const left = await db.selectFrom('audit_log').select(['path']).orderBy('id', 'asc').execute();
    expect(left).toHaveLength(1000);
    expect(left.map((entry) => entry.path)).not.toContain('/recent');
    expect(left.at(-1)?.path).toBe('/bulk1099');
    expect((await t.request(admin, { method: 'GET', url: '/api/audit/settings' })).json()).toEqual({ retentionDays: 30, maxEntries: 1000 });
    expect((await t.request(admin, { method: 'PUT', url: '/api/audit/settings', payload: { retentionDays: -1, maxEntries: 1000 } })).statusCode).toBe(400);
  });
});

describe('the JSON lines file', () => {
  it('appends one object per entry when auditLog names a file', async () => {
    const file = path.join(t.outside, 'audit.jsonl');
    fs.writeFileSync(file, '{"earlier":true}\n');
    const withFile = await createTestApp({ auditLog: file });
    try {
      await withFile.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'file-guess-5555' } });
      await withFile.login();
    } finally {
      await withFile.close();
    }
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ earlier: true });
    expect(lines.slice(1).map((line) => [line.action, line.username, line.outcome])).toEqual([
      ['auth.login', 'admin', 'denied'],
      ['auth.login', 'admin', 'ok'],
    ]);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('file-guess-5555');
  });
});
