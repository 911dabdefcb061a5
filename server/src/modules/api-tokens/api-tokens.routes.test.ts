import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { ApiTokensPath, TwoFactorPaths, type ApiToken, type ApiTokenCreated } from '@burrow/protocol';
import { ADMIN_PASSWORD, createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
  fs.writeFileSync(path.join(t.root, 'notes.txt'), 'hello');
});
afterEach(async () => {
  await t.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (username: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}` });

async function create(session: string, body: Record<string, unknown>): Promise<ApiTokenCreated> {
  const response = await t.request(session, { method: 'POST', url: ApiTokensPath, payload: body });
  expect(response.statusCode).toBe(201);
  return response.json() as ApiTokenCreated;
}

function withToken(token: string, method: string, url: string, payload?: string) {
  return t.app.inject({ method: method as 'GET', url, headers: bearer(token), payload });
}

describe('API tokens', () => {
  it('are shown once, stored hashed, listed with their details and accepted as Bearer', async () => {
    await makeUser(t, { username: 'ann' });
    const session = await loginAs(t, 'ann');
    const created = await create(session, { name: ' laptop sync ', preset: 'custom', perm: { download: true, create: true } });
    expect(created.token).toMatch(/^burrow_pat_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'laptop sync', expires: null, lastUsed: null });
    expect(created.perm).toEqual({ admin: false, execute: false, create: true, rename: false, modify: false, delete: false, share: false, download: true });

    const rows = await t.app.services.db.selectFrom('api_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(created.token.slice('burrow_pat_'.length));

    const listing = await withToken(created.token, 'GET', '/api/resources/');
    expect(listing.statusCode).toBe(200);
    expect(listing.body).toContain('notes.txt');

    const list = (await t.request(session, { method: 'GET', url: ApiTokensPath })).json() as ApiToken[];
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('token');
    expect(list[0]!.lastUsed).not.toBeNull();
    // Last use is written at most once a minute.
    await withToken(created.token, 'GET', '/api/resources/');
    expect(((await t.request(session, { method: 'GET', url: ApiTokensPath })).json() as ApiToken[])[0]!.lastUsed).toBe(list[0]!.lastUsed);
  });

  it('read-only tokens read and download but change nothing', async () => {
    const token = (await create(admin, { name: 'backup', preset: 'readOnly' })).token;
    expect((await withToken(token, 'GET', '/api/raw/notes.txt')).body).toBe('hello');
    expect((await withToken(token, 'POST', '/api/resources/new.txt', 'x')).statusCode).toBe(403);
    expect((await withToken(token, 'PUT', '/api/resources/notes.txt', 'changed')).statusCode).toBe(403);
    expect((await withToken(token, 'DELETE', '/api/resources/notes.txt')).statusCode).toBe(403);
    expect((await withToken(token, 'PATCH', '/api/resources/notes.txt?action=rename&destination=%2Fother.txt')).statusCode).toBe(403);
    // An admin's read-only token is no admin.
    expect((await withToken(token, 'GET', '/api/users')).statusCode).toBe(403);
    expect(fs.readFileSync(path.join(t.root, 'notes.txt'), 'utf8')).toBe('hello');
  });

  it('upload-only tokens create files and nothing else', async () => {
    const token = (await create(admin, { name: 'camera', preset: 'uploadOnly' })).token;
    expect((await withToken(token, 'POST', '/api/resources/photo.jpg', 'jpeg')).statusCode).toBe(200);
    expect(fs.readFileSync(path.join(t.root, 'photo.jpg'), 'utf8')).toBe('jpeg');
    // Without download the wire protocol answers 202 with no payload.
    const download = await withToken(token, 'GET', '/api/raw/notes.txt');
    expect(download.statusCode).toBe(202);
    expect(download.body).toBe('');
    expect((await withToken(token, 'DELETE', '/api/resources/photo.jpg')).statusCode).toBe(403);
  });

  it('never hold more than their owner, now or later', async () => {
    const ann = await makeUser(t, { username: 'ann', perm: { delete: false } });
    const session = await loginAs(t, 'ann');
    const token = await create(session, { name: 'all', preset: 'custom', perm: { admin: true, delete: true, modify: true, download: true } });
    expect(token.perm).toMatchObject({ admin: false, delete: false, modify: true, download: true });
    expect((await withToken(token.token, 'DELETE', '/api/resources/notes.txt')).statusCode).toBe(403);
    expect((await withToken(token.token, 'PUT', '/api/resources/notes.txt', 'one')).statusCode).toBe(200);

    // The owner loses modify: the token loses it on its next request.
    const { usersRepository } = t.app.services;
    const record = (await usersRepository.findById(ann.id))!;
    await usersRepository.update(ann.id, { ...record, perm: { ...record.perm, modify: false } });
    expect((await withToken(token.token, 'PUT', '/api/resources/notes.txt', 'two')).statusCode).toBe(403);
    expect(fs.readFileSync(path.join(t.root, 'notes.txt'), 'utf8')).toBe('one');

    expect((await t.request(session, { method: 'POST', url: ApiTokensPath, payload: { name: 'x', preset: 'custom', perm: { delete: true } } })).statusCode).toBe(400);
    expect((await t.request(session, { method: 'POST', url: ApiTokensPath, payload: { name: 'x', preset: 'everything' } })).statusCode).toBe(400);
  });

  it('expire', async () => {
    const created = await create(admin, { name: 'week', preset: 'readOnly', expiresInDays: 7 });
    const expires = Date.parse(created.expires!);
    expect(expires - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect((await withToken(created.token, 'GET', '/api/resources/')).statusCode).toBe(200);
    await t.app.services.db.updateTable('api_tokens').set({ expires_at: Date.now() - 1 }).where('id', '=', created.id).execute();
    expect((await withToken(created.token, 'GET', '/api/resources/')).statusCode).toBe(401);
  });

  it('are accepted by WebDAV as the Basic password with any username, and refused everywhere once revoked', async () => {
    await makeUser(t, { username: 'ann' });
    const session = await loginAs(t, 'ann');
    const { token, id } = await create(session, { name: 'dav', preset: 'custom', perm: { download: true, create: true, modify: true } });
    for (const username of ['ann', 'anything', '']) {
      const response = await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { ...basic(username, token), depth: '1' } });
      expect(response.statusCode).toBe(207);
      expect(response.body).toContain('notes.txt');
    }
    expect((await t.app.inject({ method: 'PUT', url: '/dav/dav.txt', headers: basic('ann', token), payload: 'via dav' })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'DELETE', url: '/dav/dav.txt', headers: basic('ann', token) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/dav/notes.txt', headers: bearer(token) })).statusCode).toBe(200);

    // Someone else cannot revoke it.
    expect((await t.request(admin, { method: 'DELETE', url: `${ApiTokensPath}/${id}` })).statusCode).toBe(404);
    expect((await t.request(session, { method: 'DELETE', url: `${ApiTokensPath}/${id}` })).statusCode).toBe(204);
    expect((await withToken(token, 'GET', '/api/resources/')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { ...basic('ann', token), depth: '0' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/dav/notes.txt', headers: bearer(token) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/resources/', headers: { 'x-auth': token } })).statusCode).toBe(401);
    expect((await t.request(session, { method: 'GET', url: ApiTokensPath })).json()).toEqual([]);
  });

  it('cannot make tokens, renew into a session or touch two-factor', async () => {
    const { token } = await create(admin, { name: 'full', preset: 'custom', perm: { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true } });
    expect((await withToken(token, 'GET', '/api/users')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: ApiTokensPath, headers: bearer(token), payload: { name: 'more', preset: 'readOnly' } })).statusCode).toBe(403);
    expect((await withToken(token, 'GET', ApiTokensPath)).statusCode).toBe(403);
    expect((await withToken(token, 'POST', '/api/renew')).statusCode).toBe(403);
    expect((await withToken(token, 'POST', TwoFactorPaths.enrol)).statusCode).toBe(403);
    expect((await withToken(token, 'GET', '/api/two-factor/policy')).statusCode).toBe(403);
  });

  it('keep working without a code for a user with two-factor, and go with a deleted user', async () => {
    await makeUser(t, { username: 'bo' });
    const session = await loginAs(t, 'bo');
    const { token } = await create(session, { name: 'script', preset: 'readOnly' });
    const { secret } = (await t.request(session, { method: 'POST', url: TwoFactorPaths.enrol })).json() as { secret: string };
    expect((await t.request(session, { method: 'POST', url: TwoFactorPaths.confirm, payload: { code: await generate({ secret }) } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'bo', password: 'bo-password-1' } })).statusCode).toBe(401);
    expect((await withToken(token, 'GET', '/api/resources/')).statusCode).toBe(200);

    const bo = (await t.app.services.usersRepository.findByUsername('bo'))!;
    expect((await t.request(admin, { method: 'DELETE', url: `/api/users/${bo.id}`, payload: { current_password: ADMIN_PASSWORD } })).statusCode).toBe(200);
    expect(await t.app.services.db.selectFrom('api_tokens').selectAll().execute()).toHaveLength(0);
    expect((await withToken(token, 'GET', '/api/resources/')).statusCode).toBe(401);
  });
});
