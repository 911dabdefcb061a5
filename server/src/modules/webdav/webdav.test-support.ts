import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Permissions, Rule } from '@burrow/protocol';
import { createTestApp, makeUser, type TestApp } from '../../test-support/app.js';

export type DavHarness = {
  t: TestApp;
  /** `Authorization` header value for a user made with `user()`. */
  basic(username: string, password?: string): string;
  /** app.inject against `/dav<path>` (path given already encoded) as `username`. */
  dav(username: string | undefined, method: string, path: string, options?: Omit<InjectOptions, 'method' | 'url'>): Promise<LightMyRequestResponse>;
  user(username: string, fields?: { scope?: string; perm?: Partial<Permissions>; rules?: Rule[]; hideDotfiles?: boolean }): Promise<void>;
  /** Listens on 127.0.0.1 and returns the port. */
  listen(): Promise<number>;
  close(): Promise<void>;
};

export const passwordOf = (username: string) => `${username}-password-1`;

export function basicHeader(username: string, password = passwordOf(username)): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export async function createDavHarness(overrides: Record<string, unknown> = {}): Promise<DavHarness> {
  const t = await createTestApp(overrides);
  return {
    t,
    basic: basicHeader,
    dav(username, method, path, options = {}) {
      const headers = { ...(options.headers ?? {}) } as Record<string, string>;
      if (username) headers.authorization = basicHeader(username);
      return t.app.inject({ ...options, method: method as InjectOptions['method'], url: `/dav${path}`, headers });
    },
    async user(username, fields = {}) {
      await makeUser(t, { username, password: passwordOf(username), ...fields });
    },
    async listen() {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      return (t.app.server.address() as AddressInfo).port;
    },
    close: () => t.close(),
  };
}

/**
 * The path of a command-line tool the suite needs. A missing tool fails the test that needs it,
 * with the package to install: CI installs it (see .ci/run) and must never skip such a suite.
 */
export function requireTool(name: string, debianPackage: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const location = found.stdout.trim();
  if (found.status !== 0 || !location) throw new Error(`${name} is not installed (Debian package "${debianPackage}"); the WebDAV client tests need it`);
  return location;
}

/** The multistatus body's hrefs, in order. */
export function hrefsOf(body: string): string[] {
  return [...body.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((match) => match[1]!);
}
