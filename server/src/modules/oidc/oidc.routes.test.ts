import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OidcPaths, type OidcSettingsUpdate } from '@burrow/protocol';
import { ADMIN_PASSWORD, createTestApp, makeUser, type TestApp } from '../../test-support/app.js';
import { OtherClient, signInAtProvider, startTestProvider, TestBrowser, TestClient, type TestProvider } from './oidc.test-support.js';

let t: TestApp;
let provider: TestProvider;
let burrow: string;
let callback: string;
let adminToken: string;
const logLines: string[] = [];

function decode(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

async function putOidc(changes: Partial<OidcSettingsUpdate>, token = adminToken) {
  const current = await t.request(token, { method: 'GET', url: OidcPaths.settings });
  const { clientSecretSet: _set, locked: _locked, ...fields } = current.json();
  return t.request(token, { method: 'PUT', url: OidcPaths.settings, payload: { ...fields, ...changes } });
}

beforeEach(async () => {
  logLines.length = 0;
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ logLevel: 'warn' }, { logStream });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  burrow = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  callback = `${burrow}${OidcPaths.callback}`;
  provider = await startTestProvider({ redirectUris: [callback], postLogoutRedirectUris: [`${burrow}/login`] });
  provider.accounts.set('sub-alice', { preferred_username: 'alice', email: 'alice@example.test' });
  provider.accounts.set('sub-carol', { preferred_username: 'carol', groups: ['staff', 'burrow-admins'] });
  adminToken = await t.login();
  const saved = await putOidc({ enabled: true, issuer: provider.issuer, clientId: TestClient.id, clientSecret: TestClient.secret, scopes: 'openid profile email groups' });
  expect(saved.statusCode).toBe(200);
});

afterEach(async () => {
  await provider.close();
  await t.close();
});

/** Starts a sign-in at Burrow and answers the provider's authorization URL. */
async function begin(browser: TestBrowser, redirect = '/files/'): Promise<URL> {
  const response = await browser.request(`${burrow}${OidcPaths.login}?redirect=${encodeURIComponent(redirect)}`);
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(location.origin).toBe(provider.issuer);
  return location;
}

/** Burrow's answer to the provider's redirect: the login page URL it sends the browser to. */
async function land(browser: TestBrowser, callbackUrl: string): Promise<URL> {
  const response = await browser.request(callbackUrl);
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!, burrow);
}

async function collect(browser: TestBrowser): Promise<{ status: number; body: string }> {
  const response = await browser.request(`${burrow}${OidcPaths.session}`, { method: 'POST' });
  return { status: response.status, body: await response.text() };
}

/** A whole sign-in: answers the token the app collects. */
async function signIn(login: string, browser = new TestBrowser()): Promise<string> {
  const authorization = await begin(browser);
  const landed = await land(browser, await signInAtProvider(browser, authorization.href, login, callback));
  expect(landed.searchParams.get('sso-error')).toBeNull();
  const session = await collect(browser);
  expect(session.status).toBe(200);
  return session.body;
}

describe('single sign-on through a real OpenID provider', () => {
  it('signs a new user in: created from the defaults with a home folder, the token handed over once through a cookie, never in a URL', async () => {
    const settings = (await t.request(adminToken, { method: 'GET', url: '/api/settings' })).json();
    expect((await t.request(adminToken, { method: 'PUT', url: '/api/settings', payload: { ...settings, createUserDir: true } })).statusCode).toBe(200);

    const browser = new TestBrowser();
    const authorization = await begin(browser, '/files/docs/');
    // Authorization code flow with PKCE, state and nonce, for the configured scopes.
    expect(authorization.searchParams.get('response_type')).toBe('code');
    expect(authorization.searchParams.get('client_id')).toBe(TestClient.id);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBeTruthy();
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('scope')).toBe('openid profile email groups');
    expect(authorization.searchParams.get('redirect_uri')).toBe(callback);

    const landed = await land(browser, await signInAtProvider(browser, authorization.href, 'sub-alice', callback));
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('sso')).toBe('1');
    expect(landed.searchParams.get('redirect')).toBe('/files/docs/');
    expect(landed.href).not.toMatch(/eyJ/);

    const session = await collect(browser);
    expect(session.status).toBe(200);
    const payload = decode(session.body);
    expect(payload.user).toMatchObject({ username: 'alice', perm: { admin: false }, lockPassword: true });
    expect((await collect(browser)).status).toBe(403);
    expect(fs.statSync(path.join(t.root, 'users', 'alice')).isDirectory()).toBe(true);
    expect((await t.request(session.body, { method: 'GET', url: '/api/resources/' })).statusCode).toBe(200);

    // A second sign-in finds the same user again.
    const again = decode(await signIn('sub-alice'));
    expect(again.user.id).toBe(payload.user.id);
    const users = (await t.request(adminToken, { method: 'GET', url: '/api/users' })).json() as { username: string }[];
    expect(users.filter((user) => user.username === 'alice')).toHaveLength(1);
  });

  it('makes members of the admin group admins and takes the rights back when they leave it', async () => {
    expect((await putOidc({ groupsClaim: 'groups', adminGroup: 'burrow-admins' })).statusCode).toBe(200);
    const first = decode(await signIn('sub-carol'));
    expect(first.user.perm.admin).toBe(true);
    expect(decode(await signIn('sub-alice')).user.perm.admin).toBe(false);

    provider.accounts.set('sub-carol', { preferred_username: 'carol', groups: ['staff'] });
    const second = decode(await signIn('sub-carol'));
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.perm.admin).toBe(false);
  });

  it('refuses an answer whose state is not the one sent, and an answer reaching a browser that never started the sign-in', async () => {
    const browser = new TestBrowser();
    const authorization = await begin(browser);
    const answer = new URL(await signInAtProvider(browser, authorization.href, 'sub-alice', callback));
    answer.searchParams.set('state', crypto.randomBytes(32).toString('base64url'));
    const landed = await land(browser, answer.href);
    expect(landed.searchParams.get('sso-error')).toBe('state');
    expect((await collect(browser)).status).toBe(403);

    // Login CSRF: another browser is handed someone's answer.
    const attacker = new TestBrowser();
    const attackerStart = await begin(attacker);
    const attackerAnswer = await signInAtProvider(attacker, attackerStart.href, 'sub-alice', callback);
    const victim = new TestBrowser();
    expect((await land(victim, attackerAnswer)).searchParams.get('sso-error')).toBe('state');
    expect((await collect(victim)).status).toBe(403);
  });

  it('refuses a replayed code, with its own state or with a fresh one', async () => {
    const browser = new TestBrowser();
    const authorization = await begin(browser);
    const answer = await signInAtProvider(browser, authorization.href, 'sub-alice', callback);
    expect((await land(browser, answer)).searchParams.get('sso')).toBe('1');
    expect((await collect(browser)).status).toBe(200);

    expect((await land(browser, answer)).searchParams.get('sso-error')).toBe('state');
    expect((await collect(browser)).status).toBe(403);

    // A fresh sign-in in the same browser, answered with the old code under the new state.
    const fresh = await begin(browser);
    const replay = new URL(answer);
    replay.searchParams.set('state', fresh.searchParams.get('state')!);
    expect((await land(browser, replay.href)).searchParams.get('sso-error')).toBe('failed');
    expect((await collect(browser)).status).toBe(403);
    expect(logLines.join('')).toMatch(/invalid_grant/);
  });

  it('refuses an ID token issued to another client (wrong audience)', async () => {
    const browser = new TestBrowser();
    const authorization = await begin(browser);
    const nonce = authorization.searchParams.get('nonce')!;

    // The same provider account signs in to another application with the same nonce.
    const verifier = crypto.randomBytes(32).toString('base64url');
    const other = new URL(`${provider.issuer}/auth`);
    other.search = new URLSearchParams({
      client_id: OtherClient.id,
      redirect_uri: OtherClient.redirectUri,
      response_type: 'code',
      scope: 'openid profile',
      state: 'other-state',
      nonce,
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const otherAnswer = new URL(await signInAtProvider(browser, other.href, 'sub-alice', OtherClient.redirectUri));
    const tokenResponse = await fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${OtherClient.id}:${OtherClient.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: otherAnswer.searchParams.get('code')!, redirect_uri: OtherClient.redirectUri, code_verifier: verifier }),
    });
    const otherTokens = (await tokenResponse.json()) as { id_token: string };
    expect(decode(otherTokens.id_token)).toMatchObject({ aud: OtherClient.id, nonce, sub: 'sub-alice' });

    // Burrow's own code exchange comes back with that token in place of its own.
    provider.swapNextIdToken(otherTokens.id_token);
    const answer = await signInAtProvider(browser, authorization.href, 'sub-alice', callback);
    expect((await land(browser, answer)).searchParams.get('sso-error')).toBe('failed');
    expect((await collect(browser)).status).toBe(403);
    expect(logLines.join('')).toMatch(/unexpected JWT \\+"aud\\+" \(audience\) claim value/);
  });

  it('refuses an expired ID token', async () => {
    provider.setIdTokenTtl(60);
    const browser = new TestBrowser();
    const authorization = await begin(browser);
    const answer = await signInAtProvider(browser, authorization.href, 'sub-alice', callback);
    // The provider's clock runs ten minutes late: its one-minute token is long expired on arrival.
    provider.rewindNextTokenRequest(600);
    expect((await land(browser, answer)).searchParams.get('sso-error')).toBe('failed');
    expect((await collect(browser)).status).toBe(403);
    expect(logLines.join('')).toMatch(/expiration is past current timestamp/);
  });

  it('refuses a provider whose metadata names another issuer, and an answer naming another issuer', async () => {
    const browser = new TestBrowser();
    const authorization = await begin(browser);
    const answer = new URL(await signInAtProvider(browser, authorization.href, 'sub-alice', callback));
    expect(answer.searchParams.get('iss')).toBe(provider.issuer);
    answer.searchParams.set('iss', `http://localhost:${provider.port}`);
    expect((await land(browser, answer.href)).searchParams.get('sso-error')).toBe('failed');
    expect(logLines.join('')).toMatch(/unexpected \\+"iss\\+" \(issuer\) response parameter value/);

    // The same provider reached under another name: its metadata names 127.0.0.1, not localhost.
    expect((await putOidc({ issuer: `http://localhost:${provider.port}` })).statusCode).toBe(200);
    logLines.length = 0;
    const response = await new TestBrowser().request(`${burrow}${OidcPaths.login}`);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!, burrow).searchParams.get('sso-error')).toBe('failed');
    expect(logLines.join('')).toMatch(/discovered metadata issuer does not match the expected issuer/);
  });

  it('keeps password sign-in for the break-glass admin alone once it is turned off', async () => {
    const user = await makeUser(t, { username: 'bob', password: 'bob-password-123456' });
    expect(user).toBeTruthy();
    const login = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
    expect((await login('bob', 'bob-password-123456')).statusCode).toBe(200);

    expect((await putOidc({ passwordLogin: false, breakGlassAdmin: '' })).statusCode).toBe(400);
    expect((await putOidc({ passwordLogin: false, breakGlassAdmin: 'admin' })).statusCode).toBe(200);
    expect((await login('bob', 'bob-password-123456')).statusCode).toBe(403);
    expect((await login('bob', 'wrong-password-0000')).statusCode).toBe(403);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    // Single sign-on still works for everyone.
    expect(decode(await signIn('sub-alice')).user.username).toBe('alice');

    // With single sign-on off, passwords work again for everyone.
    expect((await putOidc({ enabled: false })).statusCode).toBe(200);
    expect((await login('bob', 'bob-password-123456')).statusCode).toBe(200);
  });
});

describe('single sign-on settings and logout', () => {
  it('never answers the client secret, only whether one is set, and is for admins alone', async () => {
    const view = await t.request(adminToken, { method: 'GET', url: OidcPaths.settings });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ enabled: true, issuer: provider.issuer, clientId: TestClient.id, clientSecretSet: true });
    expect(view.body).not.toContain(TestClient.secret);
    // Left out, the secret is kept.
    expect((await putOidc({ buttonLabel: 'Sign in with Test' })).json()).toMatchObject({ clientSecretSet: true, buttonLabel: 'Sign in with Test' });
    await makeUser(t, { username: 'dave', password: 'dave-password-123456' });
    const daveToken = await t.login('dave', 'dave-password-123456');
    expect((await t.request(daveToken, { method: 'GET', url: OidcPaths.settings })).statusCode).toBe(403);
    const { clientSecretSet: _set, locked: _locked, ...fields } = view.json();
    expect((await t.request(daveToken, { method: 'PUT', url: OidcPaths.settings, payload: { ...fields, enabled: false } })).statusCode).toBe(403);
    expect((await putOidc({ issuer: 'http://provider.example.com' })).statusCode).toBe(400);
    expect((await putOidc({ issuer: 'not a url' })).statusCode).toBe(400);
  });

  it('shows the provider button on the login page with its label', async () => {
    await putOidc({ buttonLabel: 'Sign in with Test' });
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    const startup = JSON.parse(/<script type="application\/json" id="burrow-startup">(.*?)<\/script>/s.exec(page.body)![1]!);
    expect(startup.OIDC).toEqual({ Enabled: true, ButtonLabel: 'Sign in with Test', PasswordLogin: true });
  });

  it('logs out: the token is revoked and the provider end-session URL is offered', async () => {
    const token = await signIn('sub-alice');
    const response = await t.request(token, { method: 'POST', url: OidcPaths.logout });
    expect(response.statusCode).toBe(200);
    const endSession = new URL(response.json().endSessionUrl);
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('client_id')).toBe(TestClient.id);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toMatch(/\/login$/);
    expect((await t.request(token, { method: 'GET', url: '/api/resources/' })).statusCode).toBe(401);
  });
});
