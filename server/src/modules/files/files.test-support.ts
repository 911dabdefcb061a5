import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Permissions, Rule } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

import { FIXTURES } from '../downloads/test-fixtures.js';

export { FIXTURES };

/** Copies a fixture (`media/clip.mp4`) into the served root at `relative`. */
export function copyFixture(root: string, fixture: string, relative: string): string {
  const destination = path.join(root, relative);
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, fixture), destination);
  return destination;
}

/** Encodes a virtual path the way the front end does: every segment with encodeURIComponent. */
export function encodePath(virtual: string): string {
  return virtual
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

export type FilesHarness = {
  t: TestApp;
  admin: string;
  /** Writes a file below the served root (parents created). */
  put(relative: string, content?: string | Buffer): string;
  mkdir(relative: string): string;
  real(relative: string): string;
  exists(relative: string): boolean;
  read(relative: string): string;
  /** app.inject against `/api/resources<encoded path>` with a token. */
  api(token: string | undefined, method: InjectOptions['method'], virtual: string, options?: Omit<InjectOptions, 'method' | 'url'> & { query?: string }): Promise<LightMyRequestResponse>;
  /** Creates a user (scope, permissions, rules) and logs in. */
  user(username: string, fields?: { scope?: string; perm?: Partial<Permissions>; rules?: Rule[]; hideDotfiles?: boolean }): Promise<string>;
  close(): Promise<void>;
};

export async function createFilesHarness(overrides: Record<string, unknown> = {}): Promise<FilesHarness> {
  const t = await createTestApp(overrides);
  const admin = await t.login();
  const real = (relative: string) => path.join(t.root, relative);
  return {
    t,
    admin,
    real,
    put(relative, content = '') {
      const file = real(relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    mkdir(relative) {
      const folder = real(relative);
      fs.mkdirSync(folder, { recursive: true });
      return folder;
    },
    exists(relative) {
      try {
        fs.lstatSync(real(relative));
        return true;
      } catch {
        return false;
      }
    },
    read(relative) {
      return fs.readFileSync(real(relative), 'utf8');
    },
    api(token, method, virtual, options = {}) {
      const { query, ...rest } = options;
      const url = `/api/resources${virtual.startsWith('%') || virtual === '' ? virtual : encodePath(virtual)}${query ? `?${query}` : ''}`;
      return t.request(token, { method, url, ...rest });
    },
    async user(username, fields = {}) {
      await makeUser(t, { username, ...fields });
      return loginAs(t, username);
    },
    close: () => t.close(),
  };
}

/** Lists the names in a real folder, including staging files (for leftovers checks). */
export function namesIn(folder: string): string[] {
  return fs.readdirSync(folder).sort();
}
