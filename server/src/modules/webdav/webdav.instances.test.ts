import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makeUser, type TestApp } from '../../test-support/app.js';
import { instancesPerTest, type Instances } from '../../test-support/instances.js';
import { putUser } from '../../test-support/users-api.js';
import { sleep, waitFor } from '../uploads/tus.test-support.js';
import { basicHeader, passwordOf } from './webdav.test-support.js';

// Two instances over one PostgreSQL database, one root and one cache folder.
const startInstances = instancesPerTest();

const lockBody = `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>u</D:owner></D:lockinfo>`;

function dav(t: TestApp, method: string, url: string, options: Omit<InjectOptions, 'method' | 'url'> & { authorization?: string } = {}) {
  const headers = { authorization: options.authorization ?? basicHeader('u'), ...((options.headers ?? {}) as Record<string, string>) };
  return t.app.inject({ ...options, method: method as InjectOptions['method'], url: `/dav${url}`, headers });
}

async function withUser(): Promise<Instances> {
  const started = await startInstances();
  await makeUser(started.a, { username: 'u', password: passwordOf('u') });
  fs.writeFileSync(path.join(started.root, 'doc.txt'), 'first');
  return started;
}

describe('WebDAV locks across instances', () => {
  it('honours a lock taken through one instance on the other: 423 without the token, the token works, UNLOCK frees it', async () => {
    const instances = await withUser();
    const { a, b, root } = instances;
    const locked = await dav(a, 'LOCK', '/doc.txt', { headers: { timeout: 'Second-600' }, payload: lockBody });
    expect(locked.statusCode).toBe(200);
    const token = String(locked.headers['lock-token']).slice(1, -1);

    expect((await dav(b, 'PUT', '/doc.txt', { payload: 'from b' })).statusCode).toBe(423);
    expect((await dav(b, 'DELETE', '/doc.txt')).statusCode).toBe(423);
    // A second exclusive lock through the other instance is refused too.
    expect((await dav(b, 'LOCK', '/doc.txt', { payload: lockBody })).statusCode).toBe(423);
    // B shows the lock in PROPFIND.
    const found = await dav(b, 'PROPFIND', '/doc.txt', { headers: { depth: '0' }, payload: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' });
    expect(found.body).toContain(token);
    expect(fs.readFileSync(path.join(root, 'doc.txt'), 'utf8')).toBe('first');

    const withToken = await dav(b, 'PUT', '/doc.txt', { headers: { if: `(<${token}>)` }, payload: 'from b' });
    expect(withToken.statusCode).toBe(204);
    expect(fs.readFileSync(path.join(root, 'doc.txt'), 'utf8')).toBe('from b');
    // A refresh through B extends the lock A took.
    expect((await dav(b, 'LOCK', '/doc.txt', { headers: { if: `(<${token}>)`, timeout: 'Second-900' } })).statusCode).toBe(200);

    expect((await dav(b, 'UNLOCK', '/doc.txt', { headers: { 'lock-token': `<${token}>` } })).statusCode).toBe(204);
    expect((await dav(a, 'PUT', '/doc.txt', { payload: 'from a' })).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(root, 'doc.txt'), 'utf8')).toBe('from a');
  });

  it('lets a lock expire on every instance', async () => {
    const instances = await withUser();
    const { a, b } = instances;
    expect((await dav(a, 'LOCK', '/doc.txt', { headers: { timeout: 'Second-1' }, payload: lockBody })).statusCode).toBe(200);
    expect((await dav(b, 'PUT', '/doc.txt', { payload: 'early' })).statusCode).toBe(423);
    await sleep(1100);
    expect((await dav(b, 'PUT', '/doc.txt', { payload: 'late' })).statusCode).toBe(204);
  });

  it('gives one of two clients locking at once through both instances the lock', async () => {
    const instances = await withUser();
    const { a, b } = instances;
    // Signed in once on each first: six password checks at once would meet the login's pacing.
    for (const t of [a, b]) expect((await dav(t, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    const results = await Promise.all(Array.from({ length: 6 }, (_, index) => dav(index % 2 ? b : a, 'LOCK', '/doc.txt', { payload: lockBody })));
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 423, 423, 423, 423, 423]);
  });

  it('drops the locks of a deleted resource on every instance', async () => {
    const instances = await withUser();
    const { a, b } = instances;
    const locked = await dav(a, 'LOCK', '/doc.txt', { payload: lockBody });
    const token = String(locked.headers['lock-token']).slice(1, -1);
    expect((await dav(b, 'DELETE', '/doc.txt', { headers: { if: `(<${token}>)` } })).statusCode).toBe(204);
    expect((await dav(a, 'PUT', '/doc.txt', { payload: 'new' })).statusCode).toBe(201);
  });
});

describe('remembered WebDAV logins across instances', () => {
  it('stop working on the other instance within a second of a password change', async () => {
    const instances = await withUser();
    const { a, b } = instances;
    const user = (await a.app.services.usersRepository.findByUsername('u'))!;
    expect((await dav(b, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    expect(b.app.services.webdav.authenticator.cachedCount).toBe(1);

    const admin = await a.login();
    const changed = await putUser(a, admin, user.id, { which: ['password'], current_password: 'admin-test-password-1', data: { password: 'a-new-password-1' } });
    expect(changed.statusCode, changed.body).toBe(200);
    const started = Date.now();
    await waitFor(() => b.app.services.webdav.authenticator.cachedCount === 0, 1000, 'B to forget the login');
    expect((await dav(b, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(401);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await dav(b, 'PROPFIND', '/', { headers: { depth: '0' }, authorization: basicHeader('u', 'a-new-password-1') })).statusCode).toBe(207);
  });

  it('are forgotten on every instance when the user changes in any other way or is deleted', async () => {
    const instances = await withUser();
    const { a, b } = instances;
    const user = (await a.app.services.usersRepository.findByUsername('u'))!;
    const admin = await a.login();
    expect((await dav(b, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    expect((await dav(a, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    expect(b.app.services.webdav.authenticator.cachedCount).toBe(1);

    // Permissions change no token, so only the message makes B check the login again.
    const perm = { ...user.perm, modify: false };
    expect((await putUser(a, admin, user.id, { which: ['perm'], current_password: 'admin-test-password-1', data: { perm } })).statusCode).toBe(200);
    expect(a.app.services.webdav.authenticator.cachedCount).toBe(0);
    await waitFor(() => b.app.services.webdav.authenticator.cachedCount === 0, 1000, 'B to forget the login');
    expect((await dav(b, 'PUT', '/doc.txt', { payload: 'no' })).statusCode).toBe(403);

    expect((await dav(b, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    const removed = await a.request(admin, { method: 'DELETE', url: `/api/users/${user.id}`, payload: { current_password: 'admin-test-password-1' } });
    expect(removed.statusCode, removed.body).toBe(200);
    await waitFor(() => b.app.services.webdav.authenticator.cachedCount === 0, 1000, 'B to forget the deleted user');
    expect((await dav(b, 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(401);
  });
});
