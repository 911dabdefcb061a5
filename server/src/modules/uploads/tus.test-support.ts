import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test-support/app.js';
import { createUploadsRepository, type UploadRecord } from './uploads.repository.js';

/** Builds a `/api/tus` URL the way the front end does: every segment URI-encoded. */
export function tusUrl(virtual: string, override?: boolean): string {
  const encoded = virtual
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `/api/tus${encoded}${override === undefined ? '' : `?override=${override}`}`;
}

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

export const fileSha256 = (file: string) => sha256(fs.readFileSync(file));

export function randomBytes(size: number, seed = 1): Buffer {
  // Deterministic, incompressible-looking content so checksums catch any misplaced byte.
  const out = Buffer.alloc(size);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < size; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[index] = state & 0xff;
  }
  return out;
}

/** Requests in the exact shape tus-js-client sends them. */
export function tusClient(t: TestApp, token: string) {
  return {
    create(virtual: string, length: number | string | undefined, override = false, headers: Record<string, string> = {}) {
      const all: Record<string, string> = { 'tus-resumable': '1.0.0', ...headers };
      if (length !== undefined) all['upload-length'] = String(length);
      return t.request(token, { method: 'POST', url: tusUrl(virtual, override), headers: all });
    },
    head(virtual: string) {
      return t.request(token, { method: 'HEAD', url: tusUrl(virtual), headers: { 'tus-resumable': '1.0.0' } });
    },
    patch(virtual: string, offset: number | string | undefined, body: Buffer | NodeJS.ReadableStream, headers: Record<string, string> = {}) {
      const all: Record<string, string> = { 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', ...headers };
      if (offset !== undefined) all['upload-offset'] = String(offset);
      return t.request(token, { method: 'PATCH', url: tusUrl(virtual), headers: all, payload: body as Buffer });
    },
    remove(virtual: string) {
      return t.request(token, { method: 'DELETE', url: tusUrl(virtual), headers: { 'tus-resumable': '1.0.0' } });
    },
  };
}

/** Uploads `data` in chunks of `chunkSize`, checking each step; returns the last response. */
export async function uploadInChunks(t: TestApp, token: string, virtual: string, data: Buffer, chunkSize: number, override = false): Promise<LightMyRequestResponse> {
  const client = tusClient(t, token);
  const created = await client.create(virtual, data.length, override);
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.statusCode} ${created.body}`);
  let last = created;
  for (let offset = 0; offset < data.length; offset += chunkSize) {
    last = await client.patch(virtual, offset, data.subarray(offset, offset + chunkSize));
    if (last.statusCode !== 204) throw new Error(`patch at ${offset} failed: ${last.statusCode} ${last.body}`);
  }
  return last;
}

export const stagingDir = (t: TestApp) => path.join(t.config.cacheDir, 'uploads');

export function stagingFiles(t: TestApp): string[] {
  const dir = stagingDir(t);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

export async function uploadRows(t: TestApp): Promise<UploadRecord[]> {
  return createUploadsRepository(t.app.services.db).list();
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; reusedSocket: boolean };

/** One real HTTP request to 127.0.0.1 (for concurrency, aborts and keep-alive checks). */
export function rawRequest(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string | number>; body?: Buffer | ((request: http.ClientRequest) => void); agent?: http.Agent; timeoutMs?: number },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers, agent: options.agent ?? false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString(), reusedSocket: request.reusedSocket }),
      );
      response.on('error', reject);
    });
    request.setTimeout(options.timeoutMs ?? 20_000, () => request.destroy(new Error('request timed out')));
    request.on('error', reject);
    if (typeof options.body === 'function') options.body(request);
    else request.end(options.body);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the time is up (bounded waits only). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
