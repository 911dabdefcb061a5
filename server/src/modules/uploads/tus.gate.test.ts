import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Permissions, Rule } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import type { UserRecord } from '../users/users.model.js';
import { rawRequest, stagingFiles, tusClient, uploadRows } from './tus.test-support.js';

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const denyPath = (rulePath: string): Rule => ({ regex: false, allow: false, path: rulePath, regexp: { raw: '' } });
const denyRegex = (raw: string): Rule => ({ regex: true, allow: false, path: '', regexp: { raw } });

async function userClient(username: string, fields: { scope?: string; perm?: Partial<Permissions>; rules?: Rule[] } = {}) {
  const user = await makeUser(t, { username, ...fields });
  return { user, tus: tusClient(t, await loginAs(t, username)) };
}

async function changeUser(user: UserRecord, change: { perm?: Partial<Permissions>; rules?: Rule[] }) {
  const current = (await t.app.services.usersRepository.findById(user.id))!;
  await t.app.services.usersRepository.update(user.id, { ...current, perm: { ...current.perm, ...change.perm }, rules: change.rules ?? current.rules });
}

describe('permissions', () => {
  it('needs create for POST, HEAD and PATCH', async () => {
    const { tus } = await userClient('viewer', { perm: { create: false } });
    expect((await tus.create('/a.txt', 3)).statusCode).toBe(403);
    const { user, tus: writer } = await userClient('writer');
    await writer.create('/b.txt', 3);
    await changeUser(user, { perm: { create: false } });
    expect((await writer.head('/b.txt')).statusCode).toBe(403);
    expect((await writer.patch('/b.txt', 0, Buffer.from('abc'))).statusCode).toBe(403);
    expect(fs.existsSync(path.join(t.root, 'b.txt'))).toBe(false);
    expect(fs.statSync((await uploadRows(t))[0]!.stagingPath).size).toBe(0);
  });

  it('needs modify to override an existing file, at creation and again at completion', async () => {
    fs.writeFileSync(path.join(t.root, 'existing.txt'), 'original');
    const { tus } = await userClient('nomod', { perm: { modify: false } });
    expect((await tus.create('/existing.txt', 3, true)).statusCode).toBe(403);
    // A new file needs no modify.
    expect((await tus.create('/fresh.txt', 3, true)).statusCode).toBe(201);
    expect((await tus.patch('/fresh.txt', 0, Buffer.from('abc'))).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'fresh.txt'), 'utf8')).toBe('abc');

    const { user, tus: editor } = await userClient('editor');
    expect((await editor.create('/existing.txt', 3, true)).statusCode).toBe(201);
    await changeUser(user, { perm: { modify: false } });
    expect((await editor.patch('/existing.txt', 0, Buffer.from('new'))).statusCode).toBe(403);
    expect(fs.readFileSync(path.join(t.root, 'existing.txt'), 'utf8')).toBe('original');
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it('needs delete for DELETE, and create is not required for it', async () => {
    const { user, tus } = await userClient('deleter', { perm: { delete: false } });
    await tus.create('/d.txt', 3);
    expect((await tus.remove('/d.txt')).statusCode).toBe(403);
    expect(await uploadRows(t)).toHaveLength(1);
    await changeUser(user, { perm: { delete: true, create: false } });
    expect((await tus.remove('/d.txt')).statusCode).toBe(204);
    expect(stagingFiles(t)).toHaveLength(0);
  });
});

describe('rules', () => {
  it('refuses denied paths with 403 on every method', async () => {
    const { tus } = await userClient('ruled', { rules: [denyPath('/private'), denyRegex('\\.exe$')] });
    expect((await tus.create('/private/a.txt', 3)).statusCode).toBe(403);
    expect((await tus.create('/private', 3)).statusCode).toBe(403);
    expect((await tus.create('/tools/setup.exe', 3)).statusCode).toBe(403);
    // Traversal and case tricks are canonicalised before the rules see them.
    expect((await tus.create('/public/../private/b.txt', 3)).statusCode).toBe(403);
    expect((await tus.create('/./private//c.txt', 3)).statusCode).toBe(403);
    expect((await tus.create('/privateer.txt', 3)).statusCode).toBe(201);
    expect(stagingFiles(t)).toHaveLength(1);
  });

  it('applies a rule added during an upload to HEAD, PATCH and DELETE', async () => {
    const { user, tus } = await userClient('later');
    await tus.create('/secret/plan.txt', 6);
    await tus.patch('/secret/plan.txt', 0, Buffer.from('abc'));
    await changeUser(user, { rules: [denyPath('/secret')] });
    expect((await tus.head('/secret/plan.txt')).statusCode).toBe(403);
    expect((await tus.patch('/secret/plan.txt', 3, Buffer.from('def'))).statusCode).toBe(403);
    expect((await tus.remove('/secret/plan.txt')).statusCode).toBe(403);
    expect(fs.existsSync(path.join(t.root, 'secret'))).toBe(false);
  });

  it('applies global rules too', async () => {
    const { tus } = await userClient('global');
    await tus.create('/g/file.txt', 3);
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), rules: [denyPath('/g')] });
    expect((await tus.patch('/g/file.txt', 0, Buffer.from('abc'))).statusCode).toBe(403);
    expect((await tus.create('/g/other.txt', 3)).statusCode).toBe(403);
  });
});

describe('scope confinement', () => {
  it('keeps encoded traversal inside the scope', async () => {
    await makeUser(t, { username: 'alice', scope: '/alice' });
    const token = await loginAs(t, 'alice');
    // Over a real socket: an in-process request would have its dot segments normalised away.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const urls = ['/api/tus/..%2F..%2Fescape1.txt', '/api/tus/%2e%2e/%2e%2e/escape2.txt', '/api/tus/sub/..%2f..%2f..%2fescape3.txt', '/api/tus/../../escape4.txt', '/api/tus/.%2E/%2E./escape5.txt'];
    for (const url of urls) {
      const created = await rawRequest(port, { method: 'POST', path: `${url}?override=false`, headers: { 'x-auth': token, 'upload-length': 2 } });
      expect(created.status, url).toBe(201);
      expect(created.headers.location).toMatch(/^\/api\/tus\/escape\d\.txt$/);
      const patched = await rawRequest(port, {
        method: 'PATCH',
        path: url,
        headers: { 'x-auth': token, 'content-type': 'application/offset+octet-stream', 'upload-offset': 0, 'content-length': 2 },
        body: Buffer.from('hi'),
      });
      expect(patched.status, url).toBe(204);
    }
    expect(fs.readdirSync(path.join(t.root, 'alice')).sort()).toEqual(['escape1.txt', 'escape2.txt', 'escape3.txt', 'escape4.txt', 'escape5.txt']);
    expect(fs.readdirSync(t.root)).toEqual(['alice']);
    expect(fs.readdirSync(t.outside)).toEqual([]);
    // A backslash is an ordinary name character here, never a separator.
    const backslash = await t.request(token, { method: 'POST', url: '/api/tus/..%5c..%5cescape6.txt', headers: { 'upload-length': '1' } });
    expect(backslash.statusCode).toBe(201);
    expect(backslash.headers.location).toBe('/api/tus/..%5C..%5Cescape6.txt');
  });

  it('refuses malformed encodings and NUL bytes with 400', async () => {
    const token = await t.login();
    for (const url of ['/api/tus/bad%zz.txt', '/api/tus/nul%00.txt', '/api/tus/%E0%A4%A']) {
      const response = await t.request(token, { method: 'POST', url, headers: { 'upload-length': '1' } });
      expect(response.statusCode, url).toBe(400);
    }
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it('refuses folders linked outside the scope (403) on every method and writes nothing there', async () => {
    const token = await t.login();
    const tus = tusClient(t, token);
    fs.symlinkSync(t.outside, path.join(t.root, 'escape'));
    expect((await tus.create('/escape/x.bin', 3)).statusCode).toBe(403);
    expect((await tus.create('/escape/deeper/x.bin', 3)).statusCode).toBe(403);

    // A folder swapped for an escaping link after the upload started.
    fs.mkdirSync(path.join(t.root, 'inbox'));
    await tus.create('/inbox/x.bin', 6);
    await tus.patch('/inbox/x.bin', 0, Buffer.from('abc'));
    fs.rmSync(path.join(t.root, 'inbox'), { recursive: true });
    fs.symlinkSync(t.outside, path.join(t.root, 'inbox'));
    expect((await tus.head('/inbox/x.bin')).statusCode).toBe(403);
    expect((await tus.patch('/inbox/x.bin', 3, Buffer.from('def'))).statusCode).toBe(403);
    expect((await tus.remove('/inbox/x.bin')).statusCode).toBe(403);
    expect(fs.readdirSync(t.outside)).toEqual([]);
  });

  it('never writes through a link at the target', async () => {
    const tus = tusClient(t, await t.login());
    const victim = path.join(t.outside, 'victim.txt');
    fs.writeFileSync(victim, 'precious');
    fs.symlinkSync(victim, path.join(t.root, 'link.txt'));
    expect((await tus.create('/link.txt', 3, true)).statusCode).toBe(403);
    fs.writeFileSync(path.join(t.root, 'inside.txt'), 'inside');
    fs.symlinkSync(path.join(t.root, 'inside.txt'), path.join(t.root, 'inner-link.txt'));
    expect((await tus.create('/inner-link.txt', 3, true)).statusCode).toBe(403);

    // A link planted at the target after creation.
    await tus.create('/planted.txt', 3, true);
    fs.symlinkSync(victim, path.join(t.root, 'planted.txt'));
    expect((await tus.patch('/planted.txt', 0, Buffer.from('bad'))).statusCode).toBe(403);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    expect(fs.readFileSync(path.join(t.root, 'inside.txt'), 'utf8')).toBe('inside');
    expect(fs.lstatSync(path.join(t.root, 'planted.txt')).isSymbolicLink()).toBe(true);
  });

  it('follows links that stay inside the scope', async () => {
    const tus = tusClient(t, await t.login());
    fs.mkdirSync(path.join(t.root, 'real-dir'));
    fs.symlinkSync(path.join(t.root, 'real-dir'), path.join(t.root, 'alias'));
    expect((await tus.create('/alias/f.txt', 2)).statusCode).toBe(201);
    expect((await tus.patch('/alias/f.txt', 0, Buffer.from('ok'))).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'real-dir', 'f.txt'), 'utf8')).toBe('ok');
  });
});
