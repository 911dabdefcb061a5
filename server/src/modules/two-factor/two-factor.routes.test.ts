import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { TwoFactorHeaders, TwoFactorPaths, TwoFactorPolicyPath, userTwoFactorPath } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { basicHeader } from '../webdav/webdav.test-support.js';

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterEach(async () => {
  await t.close();
});

/** The code of `secret` a number of 30-second steps from now. */
function codeAt(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

const post = (token: string | undefined, url: string, payload?: unknown) => t.request(token, { method: 'POST', url, payload: payload as object });
const password = (username: string) => `${username}-password-1`;
const loginBody = (username: string) => ({ username, password: password(username) });

/** Makes `username`, enrols and confirms two-factor; returns the secret, recovery codes and a session. */
async function enrolled(username: string) {
  await makeUser(t, { username });
  const session = await loginAs(t, username);
  const enrolment = (await post(session, TwoFactorPaths.enrol)).json() as { secret: string; uri: string };
  const confirmed = await post(session, TwoFactorPaths.confirm, { code: await codeAt(enrolment.secret) });
  expect(confirmed.statusCode).toBe(200);
  return { secret: enrolment.secret, recoveryCodes: (confirmed.json() as { recoveryCodes: string[] }).recoveryCodes, session };
}

/** Posts the password and expects the two-factor refusal; returns the challenge. */
async function challengeFor(username: string, state = 'required'): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: loginBody(username) });
  expect(response.statusCode).toBe(401);
  expect(response.headers[TwoFactorHeaders.state]).toBe(state);
  const challenge = response.headers[TwoFactorHeaders.challenge] as string;
  expect(challenge).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  return challenge;
}

describe('enrolment', () => {
  it('shows a secret once, turns on only with a right code, and answers ten recovery codes', async () => {
    await makeUser(t, { username: 'ann' });
    const session = await loginAs(t, 'ann');
    expect((await t.request(session, { method: 'GET', url: TwoFactorPaths.status })).json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const enrolment = await post(session, TwoFactorPaths.enrol);
    expect(enrolment.statusCode).toBe(200);
    expect(enrolment.headers['cache-control']).toBe('no-store');
    const { secret, uri } = enrolment.json() as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Burrow:ann\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('issuer=Burrow');

    // The stored secret is not the secret in clear.
    const row = await t.app.services.db.selectFrom('two_factor').selectAll().where('user_id', '=', 2).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);

    const wrong = await post(session, TwoFactorPaths.confirm, { code: (Number(await codeAt(secret)) ^ 1).toString().padStart(6, '0') });
    expect(wrong.statusCode).toBe(403);
    expect((await t.request(session, { method: 'GET', url: TwoFactorPaths.status })).json()).toMatchObject({ enabled: false });
    // Still off: the password alone signs in.
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: loginBody('ann') })).statusCode).toBe(200);

    const right = await post(session, TwoFactorPaths.confirm, { code: await codeAt(secret) });
    expect(right.statusCode).toBe(200);
    const codes = (right.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const stored = await t.app.services.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) expect(codes.some((code) => code_hash.includes(code.replace('-', '')))).toBe(false);
    expect((await t.request(session, { method: 'GET', url: TwoFactorPaths.status })).json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });

    // The secret is never shown again: enrolling once on is refused.
    expect((await post(session, TwoFactorPaths.enrol)).statusCode).toBe(409);
  });

  it('accepts a code one step off for clock drift but not two', async () => {
    await makeUser(t, { username: 'bo' });
    const session = await loginAs(t, 'bo');
    const { secret } = (await post(session, TwoFactorPaths.enrol)).json() as { secret: string };
    expect((await post(session, TwoFactorPaths.confirm, { code: await codeAt(secret, 2) })).statusCode).toBe(403);
    expect((await post(session, TwoFactorPaths.confirm, { code: await codeAt(secret, -2) })).statusCode).toBe(403);
    expect((await post(session, TwoFactorPaths.confirm, { code: await codeAt(secret, -1) })).statusCode).toBe(200);
  });
});

describe('login with a code', () => {
  it('asks for a code after the right password, then signs in with the challenge and a code', async () => {
    const { secret } = await enrolled('cy');
    // A wrong password is still a plain 403, with no challenge.
    const bad = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'cy', password: 'wrong' } });
    expect(bad.statusCode).toBe(403);
    expect(bad.headers[TwoFactorHeaders.challenge]).toBeUndefined();

    const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: loginBody('cy') });
    // A filebrowser client sees a failed login (no token in the body), distinct from wrong credentials.
    expect(response.statusCode).toBe(401);
    expect(response.body).toBe('401 Unauthorized\n');
    const challenge = response.headers[TwoFactorHeaders.challenge] as string;

    // The challenge is no session.
    expect((await t.request(challenge, { method: 'GET', url: '/api/resources/' })).statusCode).toBe(401);
    expect((await post(undefined, TwoFactorPaths.login, { challenge, code: '000000' })).statusCode).toBe(403);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: 'made-up', code: await codeAt(secret, 1) })).statusCode).toBe(401);

    const done = await post(undefined, TwoFactorPaths.login, { challenge, code: await codeAt(secret, 1) });
    expect(done.statusCode).toBe(200);
    expect(done.headers['content-type']).toMatch(/^text\/plain/);
    expect((await t.request(done.body, { method: 'GET', url: '/api/resources/' })).statusCode).toBe(200);
    // A challenge signs in once.
    expect((await post(undefined, TwoFactorPaths.login, { challenge, code: await codeAt(secret, 1) })).statusCode).toBe(401);
  });

  it('never accepts the same code twice', async () => {
    const { secret } = await enrolled('dee');
    // The code that confirmed the enrolment is used up.
    const used = await codeAt(secret);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('dee'), code: used })).statusCode).toBe(403);
    const next = await codeAt(secret, 1);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('dee'), code: next })).statusCode).toBe(200);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('dee'), code: next })).statusCode).toBe(403);
    // Nor an older one still inside the drift window.
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('dee'), code: await codeAt(secret, -1) })).statusCode).toBe(403);
  });

  it('takes the same code once when it arrives twice at the same moment', async () => {
    const { secret } = await enrolled('eve');
    const code = await codeAt(secret, 1);
    const [a, b] = await Promise.all([challengeFor('eve'), challengeFor('eve')]);
    const answers = await Promise.all([post(undefined, TwoFactorPaths.login, { challenge: a, code }), post(undefined, TwoFactorPaths.login, { challenge: b, code })]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
  });

  it('takes each recovery code once, and counts what is left', async () => {
    const { recoveryCodes, session } = await enrolled('fay');
    const code = recoveryCodes[3]!;
    const first = await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('fay'), code: code.toUpperCase() });
    expect(first.statusCode).toBe(200);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('fay'), code })).statusCode).toBe(403);
    expect((await t.request(session, { method: 'GET', url: TwoFactorPaths.status })).json()).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('limits guesses per account and client even when they arrive in parallel', async () => {
    const { session } = await enrolled('gus');
    const guesses = Array.from({ length: 20 }, (_, index) => post(session, TwoFactorPaths.disable, { code: String(100000 + index) }));
    const statuses = (await Promise.all(guesses)).map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 403)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);

    // Login challenges share the same budget: the next guess is refused before it is checked.
    const challenge = await challengeFor('gus');
    const refused = await post(undefined, TwoFactorPaths.login, { challenge, code: '123456' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('withdraws a challenge after five wrong codes', async () => {
    await enrolled('hal');
    const challenge = await challengeFor('hal');
    const statuses: number[] = [];
    for (const code of ['111111', '222222', '333333', '444444', '555555', '666666']) {
      statuses.push((await post(undefined, TwoFactorPaths.login, { challenge, code })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect([401, 429]).toContain(statuses[5]);
  });

  it('refuses the password of a user with two-factor over WebDAV Basic', async () => {
    await enrolled('ida');
    const response = await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { authorization: basicHeader('ida'), depth: '0' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers[TwoFactorHeaders.challenge]).toBeUndefined();
  });
});

describe('turning off', () => {
  it('needs a code or a recovery code, then the password alone signs in', async () => {
    const { recoveryCodes, session } = await enrolled('jo');
    expect((await post(session, TwoFactorPaths.disable, { code: '000000' })).statusCode).toBe(403);
    expect((await post(session, TwoFactorPaths.disable, { code: recoveryCodes[0] })).statusCode).toBe(204);
    expect((await t.request(session, { method: 'GET', url: TwoFactorPaths.status })).json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    expect(await t.app.services.db.selectFrom('recovery_codes').selectAll().execute()).toHaveLength(0);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: loginBody('jo') })).statusCode).toBe(200);
  });

  it('replaces the recovery codes for a code from the app', async () => {
    const { secret, recoveryCodes, session } = await enrolled('kit');
    const replaced = await post(session, TwoFactorPaths.recoveryCodes, { code: await codeAt(secret, 1) });
    expect(replaced.statusCode).toBe(200);
    const fresh = (replaced.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('kit'), code: recoveryCodes[0] })).statusCode).toBe(403);
    expect((await post(undefined, TwoFactorPaths.login, { challenge: await challengeFor('kit'), code: fresh[0] })).statusCode).toBe(200);
  });
});

describe('admins', () => {
  it('require it for one user, who enrols right after the password with a session that can only enrol', async () => {
    const lee = await makeUser(t, { username: 'lee' });
    const leeSession = await loginAs(t, 'lee');
    expect((await t.request(leeSession, { method: 'PUT', url: userTwoFactorPath(lee.id), payload: { required: true } })).statusCode).toBe(403);
    expect((await t.request(admin, { method: 'PUT', url: userTwoFactorPath(lee.id), payload: { required: true } })).statusCode).toBe(204);
    expect((await t.request(admin, { method: 'GET', url: userTwoFactorPath(lee.id) })).json()).toEqual({ enabled: false, required: true, requiredGlobally: false });

    const challenge = await challengeFor('lee', 'enrol');
    // The enrolment challenge does not complete a login by itself.
    expect((await post(undefined, TwoFactorPaths.login, { challenge, code: '123456' })).statusCode).toBe(401);
    const enrolment = await post(undefined, TwoFactorPaths.loginEnrol, { challenge });
    expect(enrolment.statusCode).toBe(200);
    const { secret } = enrolment.json() as { secret: string };
    expect((await post(undefined, TwoFactorPaths.loginConfirm, { challenge, code: '000000' })).statusCode).toBe(403);
    const confirmed = await post(undefined, TwoFactorPaths.loginConfirm, { challenge, code: await codeAt(secret) });
    expect(confirmed.statusCode).toBe(200);
    const { token, recoveryCodes } = confirmed.json() as { token: string; recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect((await t.request(token, { method: 'GET', url: TwoFactorPaths.status })).json()).toEqual({ enabled: true, required: true, recoveryCodesLeft: 10 });

    // Required: it cannot be turned off by its user.
    expect((await post(token, TwoFactorPaths.disable, { code: recoveryCodes[0] })).statusCode).toBe(403);
    // From now on the login asks for a code.
    await challengeFor('lee', 'required');
  });

  it('require it for everyone, and reset it for a user', async () => {
    const { session } = await enrolled('max');
    const max = (await t.app.services.usersRepository.findByUsername('max'))!;
    await makeUser(t, { username: 'ned' });
    expect((await t.request(session, { method: 'PUT', url: TwoFactorPolicyPath, payload: { requiredForEveryone: true } })).statusCode).toBe(403);
    const set = await t.request(admin, { method: 'PUT', url: TwoFactorPolicyPath, payload: { requiredForEveryone: true } });
    expect(set.json()).toEqual({ requiredForEveryone: true });
    expect((await t.request(admin, { method: 'GET', url: TwoFactorPolicyPath })).json()).toEqual({ requiredForEveryone: true });
    await challengeFor('ned', 'enrol');
    await challengeFor('max', 'required');

    expect((await t.request(admin, { method: 'DELETE', url: userTwoFactorPath(max.id) })).statusCode).toBe(204);
    expect((await t.request(admin, { method: 'GET', url: userTwoFactorPath(max.id) })).json()).toEqual({ enabled: false, required: false, requiredGlobally: true });
    // Reset while required for everyone: enrol again at the next login.
    await challengeFor('max', 'enrol');

    await t.request(admin, { method: 'PUT', url: TwoFactorPolicyPath, payload: { requiredForEveryone: false } });
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: loginBody('max') })).statusCode).toBe(200);
    expect((await t.request(admin, { method: 'GET', url: userTwoFactorPath(999) })).statusCode).toBe(404);
  });

  it('the two-factor rows go with a deleted user', async () => {
    await enrolled('oz');
    const oz = (await t.app.services.usersRepository.findByUsername('oz'))!;
    const removed = await t.request(admin, { method: 'DELETE', url: `/api/users/${oz.id}`, payload: { current_password: 'admin-test-password-1' } });
    expect(removed.statusCode).toBe(200);
    expect(await t.app.services.db.selectFrom('two_factor').selectAll().execute()).toHaveLength(0);
    expect(await t.app.services.db.selectFrom('recovery_codes').selectAll().execute()).toHaveLength(0);
  });
});
