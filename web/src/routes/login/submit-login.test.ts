import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient } from '../../api/http-client';
import { useSession } from '../../stores/session-store';
import { submitLogin } from './submit-login';

function tokenFor(username: string) {
  const payload = btoa(JSON.stringify({ user: { id: 7, username, locale: 'en', perm: { admin: false } }, exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `eyJhbGciOiJIUzI1NiJ9.${payload.replace(/=+$/, '')}.signature`;
}

const calls: Array<{ url: string; body: unknown }> = [];

function answer(responses: Record<string, () => Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const make = responses[url];
      return make ? make() : new Response('404 Not Found', { status: 404 });
    }),
  );
}

beforeEach(() => {
  calls.length = 0;
  configureHttpClient({ baseURL: '' });
  useSession.setState({ token: null, user: null, expiresAt: null, logoutTarget: null });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const input = { username: 'ana', password: 'a-long-password', passwordConfirm: 'a-long-password', isSignup: false };

describe('submitLogin', () => {
  it('logs in and adopts the token', async () => {
    answer({ '/api/login': () => new Response(tokenFor('ana')) });
    expect(await submitLogin(input)).toBeUndefined();
    expect(useSession.getState().user?.username).toBe('ana');
    expect(calls[0]!.body).toEqual({ username: 'ana', password: 'a-long-password', recaptcha: '' });
  });

  it('signs up first, then logs in', async () => {
    answer({ '/api/signup': () => new Response('200 OK'), '/api/login': () => new Response(tokenFor('ana')) });
    expect(await submitLogin({ ...input, isSignup: true })).toBeUndefined();
    expect(calls.map((call) => call.url)).toEqual(['/api/signup', '/api/login']);
  });

  it('checks the confirmation before sending anything', async () => {
    answer({});
    expect(await submitLogin({ ...input, isSignup: true, passwordConfirm: 'other' })).toEqual({ kind: 'passwordsDontMatch' });
    expect(calls).toEqual([]);
  });

  it('treats a missing captcha answer as wrong credentials', async () => {
    answer({});
    expect(await submitLogin({ ...input, captcha: '' })).toEqual({ kind: 'wrongCredentials' });
    expect(calls).toEqual([]);
  });

  it('maps 403, 409 and the minimum-length 400 to their messages', async () => {
    answer({ '/api/login': () => new Response('403 Forbidden\n', { status: 403 }) });
    expect(await submitLogin(input)).toEqual({ kind: 'wrongCredentials' });
    answer({ '/api/signup': () => new Response('409 Conflict\n', { status: 409 }) });
    expect(await submitLogin({ ...input, isSignup: true })).toEqual({ kind: 'usernameTaken' });
    answer({ '/api/signup': () => new Response('400 Bad Request (password is too short, minimum length is 12)\n', { status: 400 }) });
    expect(await submitLogin({ ...input, isSignup: true })).toEqual({ kind: 'passwordTooShort', minimum: 12 });
    answer({ '/api/signup': () => new Response('400 Bad Request (password is too easy)\n', { status: 400 }) });
    expect(await submitLogin({ ...input, isSignup: true })).toEqual({ kind: 'rejected', message: '400 Bad Request (password is too easy)' });
  });

  it('hands other failures to the general error display', async () => {
    answer({ '/api/login': () => new Response('429 Too Many Requests\n', { status: 429 }) });
    const failure = await submitLogin(input);
    expect(failure?.kind).toBe('unexpected');
  });
});
