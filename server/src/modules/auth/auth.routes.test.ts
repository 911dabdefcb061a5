import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ADMIN_PASSWORD, createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

function decode(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

describe('POST /api/login', () => {
  it('returns a bare HS256 JWT with the user claims the front end reads', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const payload = decode(response.body);
    expect(payload.user).toMatchObject({ id: 1, username: 'admin', perm: { admin: true } });
    expect(payload.user).not.toHaveProperty('scope');
    expect(payload.user).not.toHaveProperty('password');
    expect(payload.exp - payload.iat).toBe(7200);
    expect(JSON.parse(Buffer.from(response.body.split('.')[0]!, 'base64url').toString()).alg).toBe('HS256');
  });

  it('answers 403 for a wrong password, an unknown user and malformed JSON', async () => {
    for (const payload of [
      { username: 'admin', password: 'wrong' },
      { username: 'nobody', password: 'whatever' },
    ]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/login', payload });
      expect(response.statusCode).toBe(403);
      expect(response.body).toBe('403 Forbidden\n');
    }
    const malformed = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(malformed.statusCode).toBe(403);
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'admin', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
  });

  it('rate-limits failed logins per username with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: `bad-${attempt}` } });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses[5]).toBe(429);
    // Even the right password is refused while limited.
    const locked = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(locked.statusCode).toBe(429);
  });
});

describe('tokens', () => {
  it('accepts X-Auth, and the auth cookie for GET only', async () => {
    const token = await t.login();
    expect((await t.request(token, { method: 'GET', url: '/api/users/1' })).statusCode).toBe(200);
    const cookie = await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { cookie: `auth=${token}` } });
    expect(cookie.statusCode).toBe(200);
    const post = await t.app.inject({ method: 'POST', url: '/api/renew', headers: { cookie: `auth=${token}` } });
    expect(post.statusCode).toBe(401);
  });

  it('accepts the ?auth= query on every method, after X-Auth and before the cookie', async () => {
    const token = await t.login();
    expect((await t.app.inject({ method: 'GET', url: `/api/users/1?auth=${token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/resources/?x=1&auth=${encodeURIComponent(token)}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/renew?auth=${token}` })).statusCode).toBe(200);
    // A bad query token is refused even when the cookie holds a good one; a good X-Auth wins over it.
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1?auth=a.b.c', headers: { cookie: `auth=${token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1?auth=a.b.c', headers: { 'x-auth': token } })).statusCode).toBe(200);
    // A value that is no JWT is ignored, as filebrowser does.
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1?auth=nope', headers: { cookie: `auth=${token}` } })).statusCode).toBe(200);
  });

  it('refuses forged, alg:none, expired and garbage tokens with 401', async () => {
    const token = await t.login();
    const [header, payload] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const forged = await new SignJWT(decode(token)).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-key'));
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...decode(token), user: { ...decode(token).user, id: 2 } })).toString('base64url')}.${token.split('.')[2]}`;
    const key = t.app.services.settings.signingKey();
    const expired = await new SignJWT({ ...decode(token), exp: Math.floor(Date.now() / 1000) - 10 }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const noExp = await new SignJWT({ user: decode(token).user, iat: Math.floor(Date.now() / 1000) }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    for (const bad of [none, forged, tampered, expired, noExp, 'a.b.c', '']) {
      const response = await t.request(bad, { method: 'GET', url: '/api/users/1' });
      expect(response.statusCode, bad).toBe(401);
    }
  });

  it('renews with a fresh token and X-Renew-Token: false', async () => {
    const token = await t.login();
    const response = await t.request(token, { method: 'POST', url: '/api/renew' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-renew-token']).toBe('false');
    expect(decode(response.body).user.id).toBe(1);
  });

  it('asks for renewal when the token nears expiry', async () => {
    await t.close();
    t = await createTestApp({ tokenExpiration: '30m' });
    const token = await t.login();
    const response = await t.request(token, { method: 'GET', url: '/api/users/1' });
    expect(response.headers['x-renew-token']).toBe('true');
  });

  it('revokes a token at logout, on every endpoint', async () => {
    const token = await t.login();
    const other = await t.login();
    expect((await t.request(token, { method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
    expect((await t.request(token, { method: 'GET', url: '/api/users/1' })).statusCode).toBe(401);
    expect((await t.request(token, { method: 'POST', url: '/api/renew' })).statusCode).toBe(401);
    expect((await t.request(other, { method: 'GET', url: '/api/users/1' })).statusCode).toBe(200);
  });

  it('revokes every other token of a user who changes their own password, and every token of a deleted user', async () => {
    const bob = await makeUser(t, { username: 'bob' });
    const bobToken = await loginAs(t, 'bob');
    const bobElsewhere = await loginAs(t, 'bob');
    const admin = await t.login();
    const change = await t.request(bobToken, {
      method: 'PUT',
      url: `/api/users/${bob.id}`,
      payload: { what: 'user', which: ['password'], current_password: 'bob-password-1', data: { id: bob.id, password: 'a-new-long-password' } },
    });
    expect(change.statusCode).toBe(200);
    const fresh = change.headers['x-auth-token'] as string;
    expect(fresh).toBeTruthy();
    // The session that made the change goes on (filebrowser's client renews with its token).
    expect((await t.request(bobToken, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(200);
    expect((await t.request(bobToken, { method: 'POST', url: '/api/renew' })).statusCode).toBe(200);
    expect((await t.request(bobElsewhere, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(401);
    expect((await t.request(bobElsewhere, { method: 'POST', url: '/api/renew' })).statusCode).toBe(401);
    expect((await t.request(fresh, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(200);
    expect((await t.request(admin, { method: 'GET', url: '/api/users/1' })).statusCode).toBe(200);
    const newLogin = await loginAs(t, 'bob', 'a-new-long-password');
    expect((await t.request(admin, { method: 'DELETE', url: `/api/users/${bob.id}`, payload: { current_password: ADMIN_PASSWORD } })).statusCode).toBe(200);
    expect((await t.request(newLogin, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(401);
  });

  it("revokes every token of a user whose password an admin changes, and none of the admin's", async () => {
    const bob = await makeUser(t, { username: 'bob' });
    const bobToken = await loginAs(t, 'bob');
    const admin = await t.login();
    const change = await t.request(admin, {
      method: 'PUT',
      url: `/api/users/${bob.id}`,
      payload: { what: 'user', which: ['password'], current_password: ADMIN_PASSWORD, data: { id: bob.id, password: 'a-new-long-password' } },
    });
    expect(change.statusCode).toBe(200);
    expect(change.headers['x-auth-token']).toBeUndefined();
    expect((await t.request(bobToken, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(401);
    expect((await t.request(admin, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(200);
  });

  it('keeps only the latest session that changed its own password', async () => {
    const bob = await makeUser(t, { username: 'bob' });
    const first = await loginAs(t, 'bob');
    const second = await loginAs(t, 'bob');
    const put = (token: string, current: string, password: string) =>
      t.request(token, {
        method: 'PUT',
        url: `/api/users/${bob.id}`,
        payload: { what: 'user', which: ['password'], current_password: current, data: { id: bob.id, password } },
      });
    expect((await put(first, 'bob-password-1', 'a-new-long-password')).statusCode).toBe(200);
    expect((await t.request(second, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(401);
    const third = await loginAs(t, 'bob', 'a-new-long-password');
    expect((await put(third, 'a-new-long-password', 'yet-another-long-password')).statusCode).toBe(200);
    expect((await t.request(first, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(401);
    expect((await t.request(third, { method: 'GET', url: `/api/users/${bob.id}` })).statusCode).toBe(200);
  });
});

describe('POST /api/signup', () => {
  it('is 405 when signup is off', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/signup', payload: { username: 'eve', password: 'long-enough-pass' } });
    expect(response.statusCode).toBe(405);
  });

  it('creates a user without admin or execute whatever the defaults say', async () => {
    const settings = t.app.services.settings;
    const current = settings.get();
    await settings.save({
      ...current,
      signup: true,
      createUserDir: true,
      defaults: { ...current.defaults, perm: { ...current.defaults.perm, admin: true, execute: true }, commands: ['rm'] },
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/signup', payload: { username: 'eve', password: 'long-enough-pass' } });
    expect(response.statusCode).toBe(200);
    const eve = await t.app.services.usersRepository.findByUsername('eve');
    expect(eve?.perm.admin).toBe(false);
    expect(eve?.perm.execute).toBe(false);
    expect(eve?.commands).toEqual([]);
    expect(eve?.scope).toBe('/users/eve');
    const token = await loginAs(t, 'eve', 'long-enough-pass');
    expect(decode(token).user.perm.admin).toBe(false);
  });

  it('rejects taken usernames (409), short and common passwords (400), empty fields (400)', async () => {
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), signup: true });
    const cases: Array<[Record<string, string>, number, RegExp?]> = [
      [{ username: 'admin', password: 'long-enough-pass' }, 409],
      [{ username: 'Admin', password: 'long-enough-pass' }, 409],
      [{ username: 'eve', password: 'short' }, 400, /minimum length is 12/],
      [{ username: 'eve', password: 'password1234' }, 400, /too easy/],
      [{ username: '', password: 'long-enough-pass' }, 400],
    ];
    for (const [payload, status, text] of cases) {
      const response = await t.app.inject({ method: 'POST', url: '/api/signup', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      if (text) expect(response.body).toMatch(text);
    }
  });
});

describe('other auth methods', () => {
  it('noauth issues a token for user 1 whatever the body', async () => {
    await t.app.services.settings.setAuthMethod('noauth');
    const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: {} });
    expect(response.statusCode).toBe(200);
    expect(decode(response.body).user.id).toBe(1);
  });

  it('proxy trusts the header only from configured proxy addresses', async () => {
    await t.close();
    t = await createTestApp({ trustedProxies: ['10.1.2.3'] });
    await t.app.services.settings.setAuthMethod('proxy');
    const untrusted = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'x-forwarded-user': 'admin' } });
    expect(untrusted.statusCode).toBe(403);
    const trusted = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-user': 'carol' } });
    expect(trusted.statusCode).toBe(200);
    const carol = await t.app.services.usersRepository.findByUsername('carol');
    expect(carol?.lockPassword).toBe(true);
    expect(carol?.perm.admin).toBe(false);
  });

  it('verifies reCAPTCHA responses against the configured verifier', async () => {
    await t.close();
    const calls: string[] = [];
    const fakeVerifier = (async (url: string, init?: RequestInit) => {
      calls.push(`${url} ${String(init?.body)}`);
      const success = String(init?.body).includes('response=good');
      return new Response(JSON.stringify({ success }), { status: 200 });
    }) as typeof fetch;
    t = await createTestApp({ recaptchaKey: 'site-key', recaptchaSecret: 'secret', recaptchaHost: 'http://127.0.0.1:9' }, { fetchImpl: fakeVerifier });
    const missing = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(missing.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD, recaptcha: 'bad' } });
    expect(bad.statusCode).toBe(403);
    const good = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD, recaptcha: 'good' } });
    expect(good.statusCode).toBe(200);
    expect(calls[0]).toContain('http://127.0.0.1:9/recaptcha/api/siteverify');
    expect(calls[0]).toContain('secret=secret');
  });
});
