import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { OidcPaths, TwoFactorHeaders, TwoFactorPaths } from '@burrow/protocol';
import { ADMIN_PASSWORD, createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { acquireTestCluster, type TestCluster } from '../../test-support/postgres.js';
import { createSharedChallenges, sweepSharedChallenges } from '../two-factor/challenges.js';
import { createSharedFlows, sweepSharedFlows } from '../oidc/oidc.flows.js';
import { signInAtProvider, startTestProvider, TestBrowser, TestClient, type TestProvider } from '../oidc/oidc.test-support.js';

/**
 * Two instances over one PostgreSQL database and one root, as behind a load balancer: what one
 * instance remembers of a sign-in, the other must know.
 */

let cluster: TestCluster;
let a: TestApp;
let b: TestApp;
let originA: string;
let originB: string;

beforeAll(async () => {
  cluster = await acquireTestCluster();
  const database = await cluster.createDatabase('signin');
  a = await createTestApp({ database });
  b = await createTestApp({ database, root: a.root });
  await a.app.listen({ host: '127.0.0.1', port: 0 });
  await b.app.listen({ host: '127.0.0.1', port: 0 });
  originA = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
  originB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
  await a.app.services.cluster.listening();
  await b.app.services.cluster.listening();
}, 120_000);

afterAll(async () => {
  // Both instances stop before the database they share is dropped.
  await Promise.all([a?.app.close(), b?.app.close()]);
  await a?.close();
  await b?.close();
  await cluster?.release();
});

function loginFrom(app: TestApp, username: string, password: string, client: string) {
  return app.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress: client });
}

/** Wrong passwords until the first 429 (at most 20): the statuses seen. */
async function guessUntilRefused(apps: TestApp[], username: string, client: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < 20; index++) {
    const response = await loginFrom(apps[index % apps.length]!, username, `wrong-${index}`, client);
    statuses.push(response.statusCode);
    if (response.statusCode === 429) break;
  }
  return statuses;
}

describe('sign-in across two instances on one database', () => {
  it('counts wrong passwords spread over both instances as one instance counts them', async () => {
    await makeUser(a, { username: 'gina' });
    await makeUser(a, { username: 'hugo' });
    const alone = await guessUntilRefused([a], 'gina', '192.0.2.10');
    const spread = await guessUntilRefused([a, b], 'hugo', '192.0.2.11');
    expect(alone).toEqual([403, 403, 403, 403, 403, 429]);
    expect(spread).toEqual(alone);
    // Refused on both, even with the right password; another client is not.
    expect((await loginFrom(a, 'hugo', 'hugo-password-1', '192.0.2.11')).statusCode).toBe(429);
    expect((await loginFrom(b, 'hugo', 'hugo-password-1', '192.0.2.11')).statusCode).toBe(429);
    expect((await loginFrom(b, 'hugo', 'hugo-password-1', '192.0.2.12')).statusCode).toBe(200);
    // The counts are in the database, under digests: no name or address in clear.
    const rows = await a.app.services.db.selectFrom('sign_in_limits').select('key').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a burst of parallel guesses over both instances at the same budget', async () => {
    await makeUser(a, { username: 'ivy' });
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, index) => loginFrom(index % 2 ? b : a, 'ivy', `wrong-${index}`, '192.0.2.20').then((r) => r.statusCode)));
    expect(statuses.filter((status) => status === 403)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('finishes a two-factor login begun on one instance on the other, once', async () => {
    await makeUser(a, { username: 'jade' });
    const session = await loginAs(a, 'jade');
    const enrolment = (await a.request(session, { method: 'POST', url: TwoFactorPaths.enrol })).json() as { secret: string };
    const codeAt = (steps: number) => generate({ secret: enrolment.secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
    const confirmed = await a.request(session, { method: 'POST', url: TwoFactorPaths.confirm, payload: { code: await codeAt(0) } });
    expect(confirmed.statusCode).toBe(200);
    const recoveryCodes = (confirmed.json() as { recoveryCodes: string[] }).recoveryCodes;

    const challengeFrom = async (app: TestApp) => {
      const response = await loginFrom(app, 'jade', 'jade-password-1', '192.0.2.30');
      expect(response.statusCode).toBe(401);
      expect(response.headers[TwoFactorHeaders.state]).toBe('required');
      return response.headers[TwoFactorHeaders.challenge] as string;
    };
    const complete = (app: TestApp, challenge: string, code: string) =>
      app.app.inject({ method: 'POST', url: TwoFactorPaths.login, payload: { challenge, code }, remoteAddress: '192.0.2.30' });

    // The password on A, the code on B.
    const challenge = await challengeFrom(a);
    const done = await complete(b, challenge, await codeAt(1));
    expect(done.statusCode).toBe(200);
    expect((await b.request(done.body, { method: 'POST', url: '/api/renew' })).statusCode).toBe(200);
    // Used up on B: A does not take it again, whatever the code.
    expect((await complete(a, challenge, recoveryCodes[0]!)).statusCode).toBe(401);

    // Two right codes for one challenge at once, on both instances: one login.
    const raced = await challengeFrom(b);
    const answers = await Promise.all([complete(a, raced, recoveryCodes[1]!), complete(b, raced, recoveryCodes[2]!)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    // Nothing is kept in clear.
    const stored = await a.app.services.db.selectFrom('two_factor_challenges').select('hash').execute();
    for (const row of stored) expect([challenge, raced]).not.toContain(row.hash);
  });

  it('completes a single sign-on begun on one instance through the other', async () => {
    const callbackA = `${originA}${OidcPaths.callback}`;
    const callbackB = `${originB}${OidcPaths.callback}`;
    let provider: TestProvider | undefined;
    try {
      provider = await startTestProvider({ redirectUris: [callbackA, callbackB] });
      provider.accounts.set('sub-kim', { preferred_username: 'kim' });
      const admin = await a.login();
      const current = (await a.request(admin, { method: 'GET', url: OidcPaths.settings })).json() as Record<string, unknown>;
      const { clientSecretSet: _set, locked: _locked, ...fields } = current;
      const saved = await a.request(admin, {
        method: 'PUT',
        url: OidcPaths.settings,
        payload: { ...fields, enabled: true, issuer: provider.issuer, clientId: TestClient.id, clientSecret: TestClient.secret, scopes: 'openid profile' },
      });
      expect(saved.statusCode).toBe(200);
      // B hears of the change.
      await expect
        .poll(async () => ((await b.request(admin, { method: 'GET', url: OidcPaths.settings })).json() as { enabled: boolean }).enabled, { timeout: 5_000 })
        .toBe(true);

      const browser = new TestBrowser();
      const started = await browser.request(`${originA}${OidcPaths.login}?redirect=/files/`);
      expect(started.status).toBe(302);
      const returned = await signInAtProvider(browser, started.headers.get('location')!, 'sub-kim', callbackA);
      // The balancer sends the way back to B.
      const atB = new URL(returned);
      const landed = await browser.request(`${originB}${atB.pathname}${atB.search}`);
      expect(landed.status).toBe(302);
      const login = new URL(landed.headers.get('location')!, originB);
      expect(login.searchParams.get('sso-error')).toBeNull();
      expect(login.searchParams.get('sso')).toBe('1');
      // And the app collects its session from A.
      const collected = await browser.request(`${originA}${OidcPaths.session}`, { method: 'POST' });
      expect(collected.status).toBe(200);
      const token = await collected.text();
      expect((await a.request(token, { method: 'POST', url: '/api/renew' })).statusCode).toBe(200);
      // Each step happens once: the same way back again, on A, is refused.
      const again = await browser.request(`${originA}${atB.pathname}${atB.search}`);
      expect(new URL(again.headers.get('location')!, originA).searchParams.get('sso-error')).toBe('state');
    } finally {
      await provider?.close();
      const admin = await a.login();
      const current = (await a.request(admin, { method: 'GET', url: OidcPaths.settings })).json() as Record<string, unknown>;
      const { clientSecretSet: _set, locked: _locked, ...fields } = current;
      await a.request(admin, { method: 'PUT', url: OidcPaths.settings, payload: { ...fields, enabled: false } });
    }
  });

  it('takes logouts, password changes and deleted users into account on the other instance at once', async () => {
    const lena = await makeUser(a, { username: 'lena' });
    const renewOn = async (app: TestApp, token: string) => (await app.request(token, { method: 'POST', url: '/api/renew' })).statusCode;

    const loggedOut = await loginAs(a, 'lena');
    expect(await renewOn(b, loggedOut)).toBe(200);
    expect((await a.request(loggedOut, { method: 'POST', url: '/api/logout' })).statusCode).toBeLessThan(300);
    expect(await renewOn(b, loggedOut)).toBe(401);

    const changer = await loginAs(a, 'lena');
    const other = await loginAs(b, 'lena');
    // Tokens carry their issue time in seconds: the change comes after it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const changed = await a.request(changer, {
      method: 'PUT',
      url: `/api/users/${lena.id}`,
      payload: { what: 'user', which: ['password'], current_password: 'lena-password-1', data: { password: 'lena-new-password-2' } },
    });
    expect(changed.statusCode).toBeLessThan(300);
    expect(await renewOn(b, other)).toBe(401);
    expect(await renewOn(b, changer)).toBe(200);
    expect((await loginFrom(b, 'lena', 'lena-password-1', '192.0.2.40')).statusCode).toBe(403);
    const fresh = (await loginFrom(b, 'lena', 'lena-new-password-2', '192.0.2.40')).body;

    const admin = await b.login();
    expect((await a.request(admin, { method: 'DELETE', url: `/api/users/${lena.id}`, payload: { current_password: ADMIN_PASSWORD } })).statusCode).toBe(200);
    expect(await renewOn(b, fresh)).toBe(401);
    expect(await renewOn(b, changer)).toBe(401);
  });

  it('keeps challenges and flows until they expire, then sweeps them', async () => {
    const { db } = a.app.services;
    let now = Date.now();
    const challenges = createSharedChallenges(db, 60_000, () => now);
    const challenge = await challenges.create(1, 'code');
    const flows = createSharedFlows(db)<{ n: number }>('test-flow', { ttlMs: 60_000, max: 10 });
    const kept = await flows.put({ n: 1 });
    const expired = await flows.put({ n: 2 });
    expect(await challenges.find(challenge, 'enrol')).toBeUndefined();
    expect(await challenges.find(challenge, 'code')).toEqual({ userId: 1 });
    expect(await flows.take(kept)).toEqual({ n: 1 });
    expect(await flows.take(kept)).toBeUndefined();
    now += 60_000;
    expect(await challenges.find(challenge, 'code')).toBeUndefined();
    expect(await challenges.consume(challenge, 'code')).toBe(false);
    await sweepSharedChallenges(db, now);
    await sweepSharedFlows(db, Date.now() + 60_000);
    expect(await db.selectFrom('two_factor_challenges').select('hash').execute()).toEqual([]);
    expect(await db.selectFrom('sign_in_flows').select('id_hash').where('kind', '=', 'test-flow').execute()).toEqual([]);
    expect(await flows.take(expired)).toBeUndefined();
  });
});
