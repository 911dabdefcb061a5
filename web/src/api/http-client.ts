import { Headers as ProtocolHeaders } from '@burrow/protocol/paths';
import { ApiError, NoConnectionMessage } from './api-error';

/** How the client reaches the session; set once by the session store. */
export type HttpClientHooks = {
  getToken: () => string | null;
  /** The server asked for a renewal (`X-Renew-Token: true`). */
  onRenewRequested: () => void;
  /** The server handed out a replacement token (`X-Auth-Token`), e.g. after a password change. */
  onTokenIssued: (token: string) => void;
  /** An authenticated call was refused with 401: the session is over. */
  onUnauthorized: () => void;
};

let baseURL = '';
let hooks: HttpClientHooks = {
  getToken: () => null,
  onRenewRequested: () => undefined,
  onTokenIssued: () => undefined,
  onUnauthorized: () => undefined,
};

export function configureHttpClient(options: { baseURL?: string; hooks?: Partial<HttpClientHooks> }): void {
  if (options.baseURL !== undefined) baseURL = options.baseURL.replace(/\/+$/, '');
  if (options.hooks) hooks = { ...hooks, ...options.hooks };
}

/** The absolute URL path of an API path, below the base URL. */
export function apiUrl(path: string): string {
  return baseURL + path;
}

export type RequestOptions = {
  method?: string;
  /** A plain object or array is sent as JSON; strings and binary bodies as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send the session token (default true). */
  auth?: boolean;
  /** Do not end the session on a 401 (logout itself, renewals of an expired token). */
  ignoreUnauthorized?: boolean;
};

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    body instanceof ReadableStream
  );
}

/**
 * The one place that calls `fetch`. Adds the base URL and `X-Auth`, reacts to the renewal and
 * replacement-token headers, ends the session on 401, and turns every failure into an ApiError.
 */
export async function request(path: string, options: RequestOptions = {}): Promise<Response> {
  const useAuth = options.auth ?? true;
  const headers: Record<string, string> = { ...options.headers };
  const token = useAuth ? hooks.getToken() : null;
  if (token) headers[ProtocolHeaders.auth] = token;
  let body: BodyInit | undefined;
  if (options.body !== undefined && options.body !== null) {
    if (isRawBody(options.body)) {
      body = options.body;
    } else {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path), { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    throw connectionError(error, options.signal);
  }

  if (useAuth && token) {
    const issued = response.headers.get('x-auth-token');
    if (issued) hooks.onTokenIssued(issued);
    else if (response.headers.get(ProtocolHeaders.renewToken) === 'true') hooks.onRenewRequested();
  }

  if (response.status < 200 || response.status > 299) {
    let text = '';
    try {
      text = (await response.text()).trim();
    } catch {
      // The body could not be read; the status line below still explains the failure.
    }
    const error = new ApiError(text || `${response.status} ${response.statusText}`.trim(), response.status, false, response.headers);
    if (error.code === 'unauthorized' && useAuth && !options.ignoreUnauthorized) hooks.onUnauthorized();
    throw error;
  }
  return response;
}

export async function requestText(path: string, options?: RequestOptions): Promise<string> {
  const response = await request(path, options);
  return response.text();
}

/**
 * A JSON answer. A non-JSON answer (such as the app page, which the server returns for unknown
 * GET paths) is reported as a 404 rather than parsed.
 */
export async function requestJson<T>(path: string, options?: RequestOptions): Promise<T> {
  const response = await request(path, options);
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) throw new ApiError('404 Not Found', 404);
  return (await response.json()) as T;
}

/** The error for a request or a body that the network cut off (or that was aborted on purpose). */
function connectionError(error: unknown, signal: AbortSignal | undefined): ApiError {
  const aborted = signal?.aborted || (error instanceof DOMException && error.name === 'AbortError');
  return new ApiError(NoConnectionMessage, 0, Boolean(aborted));
}

/** The next piece of a streamed answer; a broken connection becomes the no-connection error. */
export async function readChunk<T>(reader: ReadableStreamDefaultReader<T>, signal: AbortSignal | undefined): Promise<ReadableStreamReadResult<T>> {
  try {
    return await reader.read();
  } catch (error) {
    throw connectionError(error, signal);
  }
}

/**
 * A streamed text answer read line by line as it arrives (newline-delimited JSON, for instance).
 * Each network chunk yields the complete lines it finished, so a caller can update once per
 * chunk rather than once per line; blank lines (keep-alives) are skipped. Stopping the iteration
 * early, or aborting `options.signal`, cancels the response body.
 */
export async function* requestLines(path: string, options?: RequestOptions): AsyncGenerator<string[]> {
  const response = await request(path, options);
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  let isDone = false;
  try {
    for (;;) {
      const chunk = await readChunk(reader, options?.signal);
      if (chunk.done) break;
      pending += chunk.value;
      const end = pending.lastIndexOf('\n');
      if (end < 0) continue;
      const lines = pending.slice(0, end).split('\n').filter((line) => line.trim() !== '');
      pending = pending.slice(end + 1);
      if (lines.length > 0) yield lines;
    }
    isDone = true;
    if (pending.trim() !== '') yield [pending];
  } finally {
    if (!isDone) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The `ws:` or `wss:` URL of an API path on this page's host, below the base URL. */
function webSocketUrl(path: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${apiUrl(path)}`;
}

/**
 * Opens a WebSocket to an API path. The browser sends the session's `auth` cookie with the
 * upgrade request, which is how the server knows the user (a WebSocket cannot carry `X-Auth`).
 */
export function openWebSocket(path: string): WebSocket {
  return new WebSocket(webSocketUrl(path));
}
