import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { configureHttpClient, request, requestJson, requestText } from './http-client';

type FetchArgs = [string, RequestInit];

function respond(status: number, body = '', headers: Record<string, string> = {}, statusText = '') {
  return vi.fn(async (..._args: FetchArgs) => new Response(status === 204 ? null : body, { status, statusText, headers }));
}

const hooks = {
  getToken: vi.fn(() => 'header.payload.signature' as string | null),
  onRenewRequested: vi.fn(),
  onTokenIssued: vi.fn(),
  onUnauthorized: vi.fn(),
};

beforeEach(() => {
  configureHttpClient({ baseURL: '/burrow', hooks });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('the request did not fail');
}

describe('http client', () => {
  it('prefixes the base URL and sends the token as X-Auth', async () => {
    const fetchMock = respond(200, 'ok');
    vi.stubGlobal('fetch', fetchMock);
    await expect(requestText('/api/renew', { method: 'POST' })).resolves.toBe('ok');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/burrow/api/renew');
    expect((init.headers as Record<string, string>)['x-auth']).toBe('header.payload.signature');
  });

  it('sends plain objects as JSON', async () => {
    const fetchMock = respond(200);
    vi.stubGlobal('fetch', fetchMock);
    await request('/api/login', { method: 'POST', body: { username: 'a' }, auth: false });
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init.body).toBe('{"username":"a"}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect((init.headers as Record<string, string>)['x-auth']).toBeUndefined();
  });

  it('uses the response text as the error message, with the status and its code', async () => {
    vi.stubGlobal('fetch', respond(400, '400 Bad Request (password is too short, minimum length is 12)\n'));
    const error = await failure(request('/api/users', { method: 'POST' }));
    expect(error.message).toBe('400 Bad Request (password is too short, minimum length is 12)');
    expect(error.status).toBe(400);
    expect(error.code).toBe('bad_request');
    expect(error.isCancel).toBe(false);
  });

  it('falls back to "status statusText" when the body is empty', async () => {
    vi.stubGlobal('fetch', respond(409, '', {}, 'Conflict'));
    const error = await failure(request('/api/resources/a'));
    expect(error.message).toBe('409 Conflict');
    expect(error.code).toBe('conflict');
  });

  it('reports a network failure as "000 No connection" with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await failure(request('/api/resources/'));
    expect(error.message).toBe('000 No connection');
    expect(error.status).toBe(0);
    expect(error.code).toBe('no_connection');
    expect(error.isCancel).toBe(false);
  });

  it('flags an aborted request as cancelled', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        init.signal?.throwIfAborted();
        return new Response('late');
      }),
    );
    const controller = new AbortController();
    controller.abort();
    const error = await failure(request('/api/resources/', { signal: controller.signal }));
    expect(error.message).toBe('000 No connection');
    expect(error.isCancel).toBe(true);
  });

  it('asks for a renewal when the server says so', async () => {
    vi.stubGlobal('fetch', respond(200, '{}', { 'content-type': 'application/json', 'x-renew-token': 'true' }));
    await requestJson('/api/resources/');
    expect(hooks.onRenewRequested).toHaveBeenCalledOnce();
    expect(hooks.onTokenIssued).not.toHaveBeenCalled();
  });

  it('adopts a replacement token handed out in X-Auth-Token', async () => {
    vi.stubGlobal('fetch', respond(200, '200 OK', { 'x-auth-token': 'new.token.value', 'x-renew-token': 'true' }));
    await request('/api/users/1', { method: 'PUT', body: {} });
    expect(hooks.onTokenIssued).toHaveBeenCalledWith('new.token.value');
    expect(hooks.onRenewRequested).not.toHaveBeenCalled();
  });

  it('ends the session on 401 for authenticated calls only', async () => {
    vi.stubGlobal('fetch', respond(401, '401 Unauthorized'));
    const error = await failure(request('/api/resources/'));
    expect(error.code).toBe('unauthorized');
    expect(hooks.onUnauthorized).toHaveBeenCalledOnce();
    await failure(request('/api/login', { method: 'POST', auth: false }));
    await failure(request('/api/logout', { method: 'POST', ignoreUnauthorized: true }));
    expect(hooks.onUnauthorized).toHaveBeenCalledOnce();
  });

  it('treats a non-JSON answer to a JSON request as not found', async () => {
    vi.stubGlobal('fetch', respond(200, '<!doctype html>', { 'content-type': 'text/html' }));
    const error = await failure(requestJson('/api/unknown'));
    expect(error.status).toBe(404);
  });
});
