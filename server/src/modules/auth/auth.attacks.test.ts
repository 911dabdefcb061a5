/**
 * What an attacker on the network is refused, through real HTTP on 127.0.0.1:
 * - parallel guessing of a login, a share password or a current password;
 * - a spoofed X-Forwarded-For to get a fresh budget;
 * - locking the owner (or a neighbour behind the same address) out by failing on purpose;
 * - a command socket without a token, and a flood of command sockets;
 * - a foreign Host header (DNS rebinding);
 * - a token put in the URL ending up in the logs.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { errorHandlerPlugin } from '../../plugins/error-handler.js';
import { authPlugin } from '../../plugins/auth.js';
import { ADMIN_PASSWORD, createTestApp, makeUser, type TestApp } from '../../test-support/app.js';
import { createUsersService } from '../users/users.service.js';
import { usersRoutes } from '../users/users.routes.js';
import { createShareAccess } from '../shares/share-access.js';
import { createPublicSharesService } from '../shares/public-shares.service.js';
import { publicSharesRoutes } from '../shares/public-shares.routes.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createPasswordGuard, LoginPolicy, type GuessPolicy } from './password-guard.js';
import { verifyPassword } from './passwords.js';

let t: TestApp | undefined;
const extraApps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of extraApps.splice(0)) await app.close();
  await t?.close();
  t = undefined;
});

/** The real password check, counting how often it runs. */
function countingVerify() {
  const counter = { calls: 0 };
  return {
    counter,
    verify: async (password: string, hash: string | undefined) => {
      counter.calls++;
      return verifyPassword(password, hash);
    },
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** A server with the real login routes over the test app's services, with a counted password check. */
async function loginServer(options: { trustedProxies?: string[]; policy?: GuessPolicy } = {}) {
  const services = t!.app.services;
  const { counter, verify } = countingVerify();
  const auth = createAuthService({
    config: { ...services.config, trustedProxies: options.trustedProxies ?? [] },
    db: services.db,
    settings: services.settings,
    users: services.usersRepository,
    usersService: services.users,
    verifyPassword: verify,
    guard: createPasswordGuard(options.policy ?? LoginPolicy),
  });
  const app = Fastify();
  extraApps.push(app);
  await app.register(errorHandlerPlugin);
  await app.register(authPlugin, { auth });
  await app.register(authRoutes, { auth });
  return { base: await listen(app), counter };
}

function login(base: string, username: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username, password }) });
}

/** Status counts of settled responses, checking that every 429 says when to retry. */
function tally(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) {
    counts[response.status] = (counts[response.status] ?? 0) + 1;
    if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  return counts;
}

describe('parallel guessing', () => {
  it('checks at most the budget of passwords when 300 login guesses arrive at once', async () => {
    t = await createTestApp();
    const { base, counter } = await loginServer();
    const responses = await Promise.all(Array.from({ length: 300 }, (_, index) => login(base, 'admin', `guess-${index}`)));
    const counts = tally(responses);
    expect(counter.calls).toBeLessThanOrEqual(LoginPolicy.perAccountClient);
    expect(counts[403]).toBe(counter.calls);
    expect(counts[429]).toBe(300 - counter.calls);
    // The budget is spent: the right password waits like any other.
    expect((await login(base, 'admin', ADMIN_PASSWORD)).status).toBe(429);
    expect(counter.calls).toBeLessThanOrEqual(LoginPolicy.perAccountClient);
  });

  it('checks at most the per-client budget when one address guesses many accounts at once', async () => {
    t = await createTestApp();
    const { base, counter } = await loginServer();
    const responses = await Promise.all(Array.from({ length: 200 }, (_, index) => login(base, `user-${index % 40}`, `guess-${index}`)));
    tally(responses);
    expect(counter.calls).toBeLessThanOrEqual(LoginPolicy.perClient);
  });

  it('slows one account down when guesses come from hundreds of addresses at once', async () => {
    t = await createTestApp();
    // The login policy with its delays cut tenfold, so the test takes a second.
    const policy = { ...LoginPolicy, delayMs: 100, delayStepMs: 100, maxDelayMs: 3_000, maxWaitMs: 1_000 };
    const { base, counter } = await loginServer({ trustedProxies: ['127.0.0.1'], policy });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) => login(base, 'admin', `guess-${index}`, { 'x-forwarded-for': `10.${index >> 8}.${index & 255}.7` })),
    );
    const counts = tally(responses);
    // Ten at full speed, then a few spaced turns, and refusals for the rest.
    expect(counter.calls).toBeGreaterThanOrEqual(policy.slowAfter);
    expect(counter.calls).toBeLessThanOrEqual(policy.slowAfter + 1 + policy.maxWaiting);
    expect(counts[429]).toBe(200 - counter.calls);
  });

  it('checks at most the budget of a share password when 300 guesses arrive at once', async () => {
    t = await createTestApp();
    const admin = await t.login();
    const { counter, verify } = countingVerify();
    const app = Fastify();
    extraApps.push(app);
    await app.register(errorHandlerPlugin);
    await app.register(authPlugin, { auth: t.app.services.auth });
    // The public share routes over an access check whose password checks are counted.
    const { usersRepository: users, scopes, previews, subtitles, shareRepository: shares } = t.app.services;
    const access = createShareAccess({ shares, users, scopes, verifyPassword: verify });
    await app.register(publicSharesRoutes, { publicShares: createPublicSharesService({ access, previews, subtitles }) });
    const base = await listen(app);
    const share = await t.request(admin, { method: 'POST', url: '/api/share/', payload: { password: 'correct horse' } });
    const { hash } = share.json() as { hash: string };
    const guess = (password: string) => fetch(`${base}/api/public/share/${hash}`, { headers: { 'x-share-password': encodeURIComponent(password) } });
    const responses = await Promise.all(Array.from({ length: 300 }, (_, index) => guess(`guess-${index}`)));
    const counts = tally(responses);
    expect(counter.calls).toBeLessThanOrEqual(5);
    expect(counts[401]).toBe(counter.calls);
    expect(counts[429]).toBe(300 - counter.calls);
    expect((await guess('correct horse')).status).toBe(429);
  });

  it('checks at most the budget of current passwords sent with 200 parallel user updates', async () => {
    t = await createTestApp();
    const admin = await t.login();
    const services = t.app.services;
    const { counter, verify } = countingVerify();
    const users = createUsersService({ users: services.usersRepository, settings: services.settings, scopes: services.scopes, verifyPassword: verify });
    const app = Fastify();
    extraApps.push(app);
    await app.register(errorHandlerPlugin);
    await app.register(authPlugin, { auth: services.auth });
    await app.register(usersRoutes, { users, auth: services.auth });
    const base = await listen(app);
    const update = (password: string) =>
      fetch(`${base}/api/users/1`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-auth': admin },
        body: JSON.stringify({ what: 'user', which: ['password'], current_password: password, data: { password: 'a-brand-new-password' } }),
      });
    const counts = tally(await Promise.all(Array.from({ length: 200 }, (_, index) => update(`guess-${index}`))));
    expect(counter.calls).toBeLessThanOrEqual(LoginPolicy.perAccountClient);
    expect(counts[400]).toBe(counter.calls);
    expect(counts[429]).toBe(200 - counter.calls);
    expect((await update(ADMIN_PASSWORD)).status).toBe(429);
  });
});

describe('forged client addresses', () => {
  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    t = await createTestApp();
    const { base } = await loginServer();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      statuses.push((await login(base, 'admin', `guess-${attempt}`, { 'x-forwarded-for': `203.0.113.${attempt}` })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429]);
  });

  it('behind a trusted proxy, takes the address the proxy appended, not what the client wrote', async () => {
    t = await createTestApp();
    const { base } = await loginServer({ trustedProxies: ['127.0.0.1'] });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      statuses.push((await login(base, 'admin', `guess-${attempt}`, { 'x-forwarded-for': `203.0.113.${attempt}, 198.51.100.9` })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429]);
    // Other clients of the same proxy keep their own budget.
    expect((await login(base, 'admin', ADMIN_PASSWORD, { 'x-forwarded-for': '198.51.100.10' })).status).toBe(200);
  });
});

describe('locking others out', () => {
  it('failing on purpose locks out neither the owner elsewhere nor a neighbour behind the same address', async () => {
    t = await createTestApp();
    await makeUser(t, { username: 'bob' });
    const { base } = await loginServer({ trustedProxies: ['127.0.0.1'] });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(base, 'admin', `guess-${attempt}`, from('10.0.0.1'))).status).toBe(403);
    expect((await login(base, 'admin', ADMIN_PASSWORD, from('10.0.0.1'))).status).toBe(429);
    // The owner, from anywhere else, gets in at once.
    const started = Date.now();
    expect((await login(base, 'admin', ADMIN_PASSWORD, from('10.0.0.2'))).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    // A neighbour behind the attacker's address logs in to their own account.
    expect((await login(base, 'bob', 'bob-password-1', from('10.0.0.1'))).status).toBe(200);
  });

  it('guessing one account from many addresses slows it down, and the owner still gets in', async () => {
    t = await createTestApp();
    const { base } = await loginServer({ trustedProxies: ['127.0.0.1'] });
    for (let attempt = 0; attempt <= LoginPolicy.slowAfter; attempt++) {
      expect((await login(base, 'admin', `guess-${attempt}`, { 'x-forwarded-for': `10.1.${attempt}.1` })).status).toBe(403);
    }
    // An address that has failed here is told to come back later…
    const again = await login(base, 'admin', 'guess-again', { 'x-forwarded-for': '10.1.0.1' });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    // …the owner, who has not failed, waits for a turn and is let in.
    const started = Date.now();
    expect((await login(base, 'admin', ADMIN_PASSWORD, { 'x-forwarded-for': '10.2.0.1' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(500);
  });
});

/** Opens a WebSocket and reports the HTTP status it was refused with, or 101 once open. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; socket?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.on('open', () => resolve({ status: 101, socket }));
    socket.on('error', (error) => reject(error));
  });
}

describe('command sockets', () => {
  it('refuses an upgrade without a valid token with 401, before upgrading', async () => {
    t = await createTestApp({ enableExec: true });
    const ws = (await listen(t.app)).replace(/^http/, 'ws');
    expect((await upgrade(`${ws}/api/command/`)).status).toBe(401);
    expect((await upgrade(`${ws}/api/command/`, { cookie: 'auth=a.b.c' })).status).toBe(401);
    expect((await upgrade(`${ws}/api/command/?auth=a.b.c`)).status).toBe(401);
    const token = await t.login();
    // Each place a token may come from opens the socket.
    for (const [url, headers] of [
      [`${ws}/api/command/`, { cookie: `auth=${token}` }],
      [`${ws}/api/command/`, { 'x-auth': token }],
      [`${ws}/api/command/?auth=${token}`, {}],
    ] as const) {
      const opened = await upgrade(url, headers);
      expect(opened.status).toBe(101);
      opened.socket!.close();
    }
  });

  it('holds at most 8 command sockets per client, refusing the rest with 429 before upgrading', async () => {
    t = await createTestApp({ enableExec: true });
    const token = await t.login();
    const ws = (await listen(t.app)).replace(/^http/, 'ws');
    const attempts = await Promise.all(Array.from({ length: 30 }, () => upgrade(`${ws}/api/command/`, { cookie: `auth=${token}` })));
    const open = attempts.filter((attempt) => attempt.status === 101);
    expect(open).toHaveLength(8);
    expect(attempts.filter((attempt) => attempt.status === 429)).toHaveLength(22);
    // Closing one frees a place.
    await new Promise<void>((resolve) => {
      open[0]!.socket!.once('close', () => resolve());
      open[0]!.socket!.close();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await upgrade(`${ws}/api/command/`, { cookie: `auth=${token}` });
    expect(again.status).toBe(101);
    for (const attempt of [...open.slice(1), again]) attempt.socket!.terminate();
  });
});

/** A GET over node:http, which sends the Host header it is given (fetch does not). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
  });
}

describe('foreign Host headers (DNS rebinding)', () => {
  it('answers 403 to the API and the command socket under a name the server does not have', async () => {
    t = await createTestApp({ enableExec: true });
    const token = await t.login();
    const base = await listen(t.app);
    const evil = { host: 'attacker.example' };
    for (const path of ['/api/resources/', '/api/login', '/api/users/1']) {
      const response = await get(`${base}${path}`, { ...evil, 'x-auth': token });
      expect(response.status, path).toBe(403);
      expect(response.body).toBe('403 Forbidden\n');
    }
    const ws = base.replace(/^http/, 'ws');
    expect((await upgrade(`${ws}/api/command/`, { ...evil, cookie: `auth=${token}` })).status).toBe(403);
    // The server's own names work.
    expect((await get(`${base}/api/resources/`, { 'x-auth': token })).status).toBe(200);
    expect((await get(`${base}/api/resources/`, { host: 'localhost:8080', 'x-auth': token })).status).toBe(200);
  });
});

describe('secrets in URLs', () => {
  it('never writes an ?auth= token or a share ?token= to the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    t = await createTestApp({ logLevel: 'info' }, { logStream: stream });
    const token = await t.login();
    const base = await listen(t.app);
    expect((await fetch(`${base}/api/resources/?auth=${token}`)).status).toBe(200);
    expect((await fetch(`${base}/api/resources/?x=1&%61uth=${token}`)).status).toBe(200);
    const share = await t.request(token, { method: 'POST', url: '/api/share/', payload: { password: 'correct horse' } });
    const { hash } = share.json() as { hash: string };
    const { token: shareToken } = await t.app.services.db.selectFrom('shares').select('token').where('hash', '=', hash).executeTakeFirstOrThrow();
    expect((await fetch(`${base}/api/public/share/${hash}?token=${shareToken}`)).status).toBe(200);
    const log = lines.join('');
    expect(log).toContain('/api/resources/?auth=[redacted]');
    expect(log).toContain(`/api/public/share/${hash}?token=[redacted]`);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
    expect(log).not.toContain(shareToken);
  });
});
