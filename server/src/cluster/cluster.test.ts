import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectStageBytes } from '../storage/direct-io.js';
import { acquireTestCluster, type TestCluster } from '../test-support/postgres.js';
import { randomBytes, rawRequest, sha256, sleep, tusUrl, waitFor } from '../modules/uploads/tus.test-support.js';
import { startProxy, type Proxy } from '../../../bench/lib/cluster.mjs';
import { childTsconfig, startInstance, type Instance } from './cluster.test-support.js';

// Three real Burrow processes on one PostgreSQL database, one root and one cache folder, behind a
// round-robin proxy: what one instance is told, every instance must act on.

const ADMIN_PASSWORD = 'cluster-admin-password-7';
const INSTANCES = 3;
/** How soon a change made on one instance must hold on every other. */
const PROPAGATION_MS = 1_000;
/** The index's periodic rescan for changes made outside Burrow. */
const RESCAN_SECONDS = 2;

let postgres: TestCluster;
let databaseUrl: string;
let base: string;
let root: string;
let cacheDir: string;
let tsconfig: ReturnType<typeof childTsconfig>;
const instances: Instance[] = [];
let proxy: Proxy;
let admin: string;

function launch(index: number): Promise<Instance> {
  return startInstance({
    name: `instance ${index}`,
    database: databaseUrl,
    root,
    cacheDir,
    tsconfig: tsconfig.file,
    adminPassword: ADMIN_PASSWORD,
    env: { BURROW_SEARCH_RESCAN_INTERVAL: `${RESCAN_SECONDS}s` },
  });
}

beforeAll(async () => {
  tsconfig = childTsconfig();
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-cluster-'));
  root = path.join(base, 'root');
  cacheDir = path.join(base, 'cache');
  fs.mkdirSync(root);
  postgres = await acquireTestCluster();
  databaseUrl = await postgres.createDatabase('burrow_cluster');
  // Started together: the migrations must hold against instances racing to apply them.
  const started = await Promise.allSettled(Array.from({ length: INSTANCES }, (_, index) => launch(index)));
  for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  proxy = await startProxy(instances.map((instance) => instance.port));
  admin = await login(proxy.port, 'admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.kill()));
  await proxy?.close();
  await postgres?.release();
  tsconfig?.remove();
  if (base) fs.rmSync(base, { recursive: true, force: true });
}, 60_000);

type Answer = { status: number; body: string; headers: http.IncomingHttpHeaders };

/** One request to a port (an instance or the proxy); a JSON `json` body is sent as such. */
async function call(port: number, method: string, url: string, options: { token?: string; json?: unknown; body?: Buffer | string; headers?: Record<string, string | number> } = {}): Promise<Answer> {
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.token) headers['x-auth'] = options.token;
  let body: Buffer | undefined;
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] = 'application/json';
  } else if (options.body !== undefined) {
    body = Buffer.from(options.body);
  }
  if (body) headers['content-length'] = body.length;
  return rawRequest(port, { method, path: url, headers, body, timeoutMs: 20_000 });
}

async function login(port: number, username: string, password: string): Promise<string> {
  const answer = await call(port, 'POST', '/api/login', { json: { username, password } });
  if (answer.status !== 200) throw new Error(`login of ${username} answered ${answer.status}: ${answer.body}`);
  return answer.body;
}

let userCount = 0;

/** Creates a user through the proxy; returns its id, name and password. */
async function createUser(prefix: string, perm: Record<string, boolean> = {}): Promise<{ id: number; username: string; password: string }> {
  userCount += 1;
  const username = `${prefix}${userCount}`;
  const password = `${username}-long-password`;
  const answer = await call(proxy.port, 'POST', '/api/users', {
    token: admin,
    json: {
      what: 'user',
      which: [],
      current_password: ADMIN_PASSWORD,
      data: { username, password, scope: '', locale: 'en', perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true, ...perm } },
    },
  });
  expect(answer.status, answer.body).toBe(201);
  const id = Number(/(\d+)$/.exec(String(answer.headers.location))?.[1]);
  expect(id).toBeGreaterThan(0);
  return { id, username, password };
}

/** Polls every instance until `check` holds on each; fails with what the last one saw after `ms`. */
async function onEveryInstance(what: string, check: (instance: Instance) => Promise<boolean>, ms = PROPAGATION_MS): Promise<void> {
  const deadline = Date.now() + ms;
  const pending = new Set(instances.filter((instance) => instance.alive()));
  while (pending.size > 0) {
    for (const instance of [...pending]) if (await check(instance)) pending.delete(instance);
    if (pending.size === 0) return;
    if (Date.now() > deadline) throw new Error(`${what}: not true after ${ms} ms on ${[...pending].map((instance) => instance.name).join(', ')}`);
    await sleep(25);
  }
}

async function status(port: number, method: string, url: string, token?: string): Promise<number> {
  return (await call(port, method, url, { token })).status;
}

describe('sessions and accounts', () => {
  it('a logout on one instance revokes the token on every instance within a second', async () => {
    const user = await createUser('logout');
    const token = await login(proxy.port, user.username, user.password);
    for (const instance of instances) expect(await status(instance.port, 'GET', `/api/users/${user.id}`, token)).toBe(200);
    expect(await status(instances[0]!.port, 'POST', '/api/logout', token)).toBe(200);
    await onEveryInstance('the logged-out token refused', async (instance) => (await status(instance.port, 'GET', `/api/users/${user.id}`, token)) === 401);
  });

  it("a password change on one instance ends the user's other sessions everywhere, and only the new password logs in", async () => {
    const user = await createUser('password');
    const kept = await login(instances[0]!.port, user.username, user.password);
    const other = await login(instances[2]!.port, user.username, user.password);
    // Seen once on every instance, so that any per-instance memory of it exists.
    for (const instance of instances) expect(await status(instance.port, 'GET', `/api/users/${user.id}`, other)).toBe(200);
    const newPassword = `${user.password}-renewed`;
    const changed = await call(instances[1]!.port, 'PUT', `/api/users/${user.id}`, {
      token: kept,
      json: { what: 'user', which: ['password'], current_password: user.password, data: { id: user.id, password: newPassword } },
    });
    expect(changed.status, changed.body).toBe(200);
    await onEveryInstance('the other session refused', async (instance) => (await status(instance.port, 'GET', `/api/users/${user.id}`, other)) === 401);
    for (const instance of instances) {
      expect((await call(instance.port, 'POST', '/api/login', { json: { username: user.username, password: user.password } })).status).toBe(403);
      expect((await call(instance.port, 'POST', '/api/login', { json: { username: user.username, password: newPassword } })).status).toBe(200);
    }
  });

  it("deleting a user on one instance ends that user's sessions everywhere within a second", async () => {
    const user = await createUser('deleted');
    const token = await login(proxy.port, user.username, user.password);
    for (const instance of instances) expect(await status(instance.port, 'GET', '/api/resources/', token)).toBe(200);
    const removed = await call(instances[2]!.port, 'DELETE', `/api/users/${user.id}`, { token: admin, json: { current_password: ADMIN_PASSWORD } });
    expect(removed.status, removed.body).toBe(200);
    await onEveryInstance('the deleted user refused', async (instance) => (await status(instance.port, 'GET', '/api/resources/', token)) === 401);
    for (const instance of instances) {
      expect((await call(instance.port, 'POST', '/api/login', { json: { username: user.username, password: user.password } })).status).toBe(403);
    }
  });

  it('settings and permission changes made on one instance hold on all of them within a second', async () => {
    const current = await call(instances[0]!.port, 'GET', '/api/settings', { token: admin });
    expect(current.status).toBe(200);
    const settings = JSON.parse(current.body) as { branding: { name: string } };
    const name = `Cluster ${Date.now().toString(36)}`;
    const saved = await call(instances[0]!.port, 'PUT', '/api/settings', { token: admin, json: { ...settings, branding: { ...settings.branding, name } } });
    expect(saved.status, saved.body).toBe(200);
    // The name every page is served with comes from each instance's copy of the settings.
    await onEveryInstance('the new branding name served', async (instance) => (await call(instance.port, 'GET', '/')).body.includes(name));

    const user = await createUser('perm');
    const token = await login(proxy.port, user.username, user.password);
    const folder = (tag: string) => `/api/resources/${user.username}-${tag}/`;
    for (const [index, instance] of instances.entries()) expect(await status(instance.port, 'POST', folder(`before-${index}`), token)).toBe(200);
    const record = JSON.parse((await call(proxy.port, 'GET', `/api/users/${user.id}`, { token: admin })).body) as { perm: Record<string, boolean> };
    const revoked = await call(instances[1]!.port, 'PUT', `/api/users/${user.id}`, {
      token: admin,
      json: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id: user.id, perm: { ...record.perm, create: false } } },
    });
    expect(revoked.status, revoked.body).toBe(200);
    let attempt = 0;
    await onEveryInstance('folder creation refused', async (instance) => (await status(instance.port, 'POST', folder(`after-${++attempt}`), token)) === 403);
  });

  it('failed logins count across instances: the same 403s and 429s as on one instance', async () => {
    const user = await createUser('guess');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      statuses.push((await call(proxy.port, 'POST', '/api/login', { json: { username: user.username, password: `wrong-${attempt}` } })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429]);
    // Every instance knows this client is limited, even with the right password.
    for (const instance of instances) {
      expect((await call(instance.port, 'POST', '/api/login', { json: { username: user.username, password: user.password } })).status).toBe(429);
    }
  });
});

describe('resumable uploads (tus)', () => {
  const tusHeaders = (token: string, offset: number, length: number) => ({
    'x-auth': token,
    'tus-resumable': '1.0.0',
    'content-type': 'application/offset+octet-stream',
    'upload-offset': offset,
    'content-length': length,
  });
  const stagingNames = () => {
    const dir = path.join(cacheDir, 'uploads');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => fs.statSync(path.join(dir, name)).isFile()) : [];
  };
  /** The size of the one staging file made since `before` was taken (-1 while there is none). */
  const newStagingSize = (before: string[]) => {
    const made = stagingNames().filter((name) => !before.includes(name));
    return made.length === 1 ? fs.statSync(path.join(cacheDir, 'uploads', made[0]!)).size : -1;
  };

  it('chunks that alternate between instances make one correct file', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 12_345, 11);
    const chunk = 256 * 1024;
    const served = [...proxy.served];
    const created = await call(proxy.port, 'POST', tusUrl('/alternating.bin', false), { token: admin, headers: { 'tus-resumable': '1.0.0', 'upload-length': data.length } });
    expect(created.status, created.body).toBe(201);
    for (let offset = 0; offset < data.length; offset += chunk) {
      const head = await call(proxy.port, 'HEAD', tusUrl('/alternating.bin'), { token: admin, headers: { 'tus-resumable': '1.0.0' } });
      expect(head.headers['upload-offset']).toBe(String(offset));
      const part = data.subarray(offset, offset + chunk);
      const patched = await rawRequest(proxy.port, { method: 'PATCH', path: tusUrl('/alternating.bin'), headers: tusHeaders(admin, offset, part.length), body: part });
      expect(patched.status, patched.body).toBe(204);
      expect(patched.headers['upload-offset']).toBe(String(offset + part.length));
    }
    expect(sha256(fs.readFileSync(path.join(root, 'alternating.bin')))).toBe(sha256(data));
    // Every instance took part.
    for (const [index, count] of proxy.served.entries()) expect(count - served[index]!, `instance ${index}`).toBeGreaterThan(2);
  });

  it('a second writer on another instance gets 423 while the first is writing', async () => {
    const data = randomBytes(DirectStageBytes + 500_000, 12);
    const before = stagingNames();
    const created = await call(instances[0]!.port, 'POST', tusUrl('/contended.bin', false), { token: admin, headers: { 'upload-length': data.length } });
    expect(created.status).toBe(201);
    let first!: http.ClientRequest;
    const response = rawRequest(instances[0]!.port, {
      method: 'PATCH',
      path: tusUrl('/contended.bin'),
      headers: tusHeaders(admin, 0, data.length),
      body: (request) => {
        first = request;
        request.write(data.subarray(0, DirectStageBytes));
      },
      timeoutMs: 60_000,
    });
    response.catch(() => undefined);
    try {
      await waitFor(() => newStagingSize(before) > 0, 20_000, 'the first bytes on disk');
      for (const instance of instances.slice(1)) {
        const second = await rawRequest(instance.port, { method: 'PATCH', path: tusUrl('/contended.bin'), headers: tusHeaders(admin, 0, 10), body: Buffer.alloc(10) });
        expect(second.status, instance.name).toBe(423);
        const replace = await rawRequest(instance.port, { method: 'POST', path: tusUrl('/contended.bin', true), headers: { 'x-auth': admin, 'upload-length': 5 } });
        expect(replace.status, instance.name).toBe(423);
      }
    } catch (error) {
      first.destroy();
      throw error;
    }
    first.end(data.subarray(DirectStageBytes));
    const done = await response;
    expect(done.status, done.body).toBe(204);
    expect(sha256(fs.readFileSync(path.join(root, 'contended.bin')))).toBe(sha256(data));
  });

  it('an instance killed mid-upload loses nothing: the client resumes on another one', async () => {
    const victim = instances[0]!;
    const data = randomBytes(6 * 1024 * 1024, 13);
    const sent = 2 * DirectStageBytes;
    const before = stagingNames();
    const created = await call(victim.port, 'POST', tusUrl('/survivor.bin', false), { token: admin, headers: { 'upload-length': data.length } });
    expect(created.status).toBe(201);
    let outgoing: http.ClientRequest | undefined;
    const transfer = rawRequest(victim.port, {
      method: 'PATCH',
      path: tusUrl('/survivor.bin'),
      headers: tusHeaders(admin, 0, data.length),
      body: (request) => {
        outgoing = request;
        request.on('error', () => undefined);
        request.write(data.subarray(0, sent));
      },
    });
    transfer.catch(() => undefined);
    await waitFor(() => newStagingSize(before) > 0, 20_000, 'the first bytes on disk');
    await victim.kill();
    outgoing?.destroy();
    try {
      expect(fs.existsSync(path.join(root, 'survivor.bin'))).toBe(false);

      // The client asks the address it knows (the proxy) where to go on, as tus-js-client does,
      // retrying while the dead writer's claim lapses.
      let offset = -1;
      await waitFor(
        async () => {
          const head = await call(proxy.port, 'HEAD', tusUrl('/survivor.bin'), { token: admin, headers: { 'tus-resumable': '1.0.0' } });
          if (head.status !== 200) return false;
          offset = Number(head.headers['upload-offset']);
          const rest = data.subarray(offset);
          const patched = await rawRequest(proxy.port, { method: 'PATCH', path: tusUrl('/survivor.bin'), headers: tusHeaders(admin, offset, rest.length), body: rest, timeoutMs: 60_000 });
          if (patched.status === 423) return false;
          expect(patched.status, patched.body).toBe(204);
          return true;
        },
        30_000,
        'the upload to resume on a live instance',
      );
      // On PostgreSQL the offset is the one recorded in the database: the chunk the dead instance
      // was writing counts only once recorded, so the client may send it again (it still has it).
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThanOrEqual(sent);
      expect(sha256(fs.readFileSync(path.join(root, 'survivor.bin')))).toBe(sha256(data));
    } finally {
      // The instance comes back (on another port) for the tests that follow.
      instances[0] = await launch(0);
      proxy.setBackend(0, instances[0].port);
    }
  }, 90_000);
});

describe('periodic jobs', () => {
  it('run on one instance per period: an instance started within the period does not run them again', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    // The hourly sweeps; the index rescan runs every few seconds here, so it is due again anyway.
    const rows = async () =>
      (await client.query<{ name: string; started_at: string; holder: string }>("SELECT name, started_at, holder FROM cluster_jobs WHERE name IN ('audit-sweep', 'trash-sweep') ORDER BY name")).rows;
    try {
      const first = await rows();
      // Both sweeps run when an instance is ready, so every instance raced for them: one won each.
      expect(first.map((row) => row.name)).toEqual(['audit-sweep', 'trash-sweep']);
      for (const row of first) expect(row.holder).toMatch(/^[0-9a-f]{16}$/);
      const restarted = instances[2]!;
      await restarted.kill();
      instances[2] = await launch(2);
      proxy.setBackend(2, instances[2].port);
      // Ready means its start-up sweeps were tried.
      await waitFor(async () => (await status(instances[2]!.port, 'GET', '/health')) === 200, 20_000, 'the restarted instance to be ready');
      await sleep(1_000);
      expect(await rows()).toEqual(first);
    } finally {
      await client.end();
    }
  }, 90_000);
});

describe('search', () => {
  async function found(port: number, query: string): Promise<string[]> {
    const answer = await call(port, 'GET', `/api/search/?query=${encodeURIComponent(query)}`, { token: admin });
    expect(answer.status).toBe(200);
    return answer.body
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => (JSON.parse(line) as { path: string }).path);
  }

  it("changes made through one instance show in every instance's results at once", async () => {
    const name = `zephyr-${Date.now().toString(36)}.txt`;
    const made = await call(instances[1]!.port, 'POST', `/api/resources/${name}`, { token: admin, body: 'hello' });
    expect(made.status, made.body).toBe(200);
    for (const instance of instances) expect(await found(instance.port, 'zephyr'), instance.name).toEqual([name]);
    const removed = await call(instances[2]!.port, 'DELETE', `/api/resources/${name}`, { token: admin });
    expect(removed.status, removed.body).toBe(204);
    for (const instance of instances) expect(await found(instance.port, 'zephyr'), instance.name).toEqual([]);
  });

  it('a file made on disk from outside is found by every instance after a rescan', async () => {
    const name = `quokka-${Date.now().toString(36)}.txt`;
    fs.mkdirSync(path.join(root, 'outside'), { recursive: true });
    fs.writeFileSync(path.join(root, 'outside', name), 'made by another program');
    await onEveryInstance('the outside file found', async (instance) => (await found(instance.port, 'quokka')).includes(`outside/${name}`), 4 * RESCAN_SECONDS * 1000 + 5_000);
  }, 40_000);
});

describe('thumbnails', () => {
  it('asked of two instances at once, both are the same correct image', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 30, b: 90 } } }).jpeg().toBuffer();
    fs.writeFileSync(path.join(root, 'photo.jpg'), photo);
    const url = '/api/preview/thumb/photo.jpg?inline=true';
    const [one, two] = await Promise.all(
      [instances[0]!, instances[1]!].map(
        (instance) =>
          new Promise<{ status: number; type: string; body: Buffer }>((resolve, reject) => {
            fetch(`http://127.0.0.1:${instance.port}${url}`, { headers: { 'x-auth': admin }, signal: AbortSignal.timeout(20_000) })
              .then(async (response) => resolve({ status: response.status, type: response.headers.get('content-type') ?? '', body: Buffer.from(await response.arrayBuffer()) }))
              .catch(reject);
          }),
      ),
    );
    for (const answer of [one!, two!]) {
      expect(answer.status).toBe(200);
      expect(answer.type).toBe('image/jpeg');
      const meta = await sharp(answer.body).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(256);
    }
    expect(sha256(one!.body)).toBe(sha256(two!.body));
    // Asked again, each instance serves the one cached copy.
    const third = await fetch(`http://127.0.0.1:${instances[2]!.port}${url}`, { headers: { 'x-auth': admin } });
    expect(sha256(Buffer.from(await third.arrayBuffer()))).toBe(sha256(one!.body));
  });
});
