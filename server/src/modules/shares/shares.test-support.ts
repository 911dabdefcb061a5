import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Permissions, Rule, Share } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import type { UserRecord } from '../users/users.model.js';

export type ShareHarness = {
  t: TestApp;
  admin: string;
  /** Writes a file below the served root, creating folders. */
  put(relative: string, content?: string | Buffer): string;
  mkdir(relative: string): string;
  /** Creates a user and logs in. */
  user(username: string, fields?: { scope?: string; perm?: Partial<Permissions>; rules?: Rule[]; hideDotfiles?: boolean }): Promise<{ token: string; record: UserRecord }>;
  /** POST /api/share/{path} (path already encoded as the client would) and returns the link. */
  share(token: string, encodedPath: string, body?: Record<string, unknown>): Promise<Share>;
  /** A public GET (no JWT) with optional headers and client address. */
  visit(url: string, options?: { headers?: Record<string, string>; remoteAddress?: string; method?: InjectOptions['method'] }): Promise<LightMyRequestResponse>;
  /**
   * A GET over a real socket on 127.0.0.1 with the path sent byte for byte. Injected requests go
   * through WHATWG URL parsing, which folds `%2e%2e` and `..` before the router ever sees them;
   * a real client can send them unfolded.
   */
  raw(rawPath: string, headers?: Record<string, string>): Promise<{ status: number; body: string }>;
  rows(): Promise<Array<{ hash: string; path: string; user_id: number; token: string; password_hash: string; expire: number }>>;
  close(): Promise<void>;
};

export async function createShareHarness(): Promise<ShareHarness> {
  const t = await createTestApp();
  const admin = await t.login();
  const write = (relative: string, content: string | Buffer = '') => {
    const target = path.join(t.root, ...relative.split('/').filter(Boolean));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    return target;
  };
  return {
    t,
    admin,
    put: write,
    mkdir(relative) {
      const target = path.join(t.root, ...relative.split('/').filter(Boolean));
      fs.mkdirSync(target, { recursive: true });
      return target;
    },
    async user(username, fields = {}) {
      const record = await makeUser(t, { username, ...fields });
      return { token: await loginAs(t, username), record };
    },
    async share(token, encodedPath, body = {}) {
      const response = await t.request(token, { method: 'POST', url: `/api/share${encodedPath}`, payload: body });
      if (response.statusCode !== 200) throw new Error(`share ${encodedPath} failed: ${response.statusCode} ${response.body}`);
      return response.json() as Share;
    },
    visit(url, options = {}) {
      return t.app.inject({ method: options.method ?? 'GET', url, headers: options.headers ?? {}, remoteAddress: options.remoteAddress });
    },
    async raw(rawPath, headers = {}) {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      return new Promise((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET', headers, timeout: 10_000 }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }));
          response.on('error', reject);
        });
        request.on('timeout', () => request.destroy(new Error('request timed out')));
        request.on('error', reject);
        request.end();
      });
    },
    async rows() {
      return (await t.app.services.db.selectFrom('shares').selectAll().execute()).map((row) => ({ ...row, user_id: Number(row.user_id), expire: Number(row.expire) }));
    },
    close: () => t.close(),
  };
}

/** The X-SHARE-PASSWORD header as the front end sends it (URL-encoded). */
export function passwordHeader(password: string): Record<string, string> {
  return { 'x-share-password': encodeURIComponent(password) };
}

/** Entries of a tar archive by name (folders end with `/`), with their contents as text. */
export async function tarEntries(body: Buffer): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        entries.set(header.type === 'directory' ? header.name.replace(/\/?$/, '/') : header.name, Buffer.concat(chunks).toString());
        next();
      });
      stream.resume();
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  Readable.from([body]).pipe(extract);
  await done;
  return entries;
}
