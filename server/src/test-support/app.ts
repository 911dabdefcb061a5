import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Permissions, Rule } from '@burrow/protocol';
import { buildApp, type BuildOptions } from '../app.js';
import { isPostgresUrl, resolveConfig, type Config } from '../config.js';
import { hashPassword } from '../modules/auth/passwords.js';
import type { UserRecord } from '../modules/users/users.model.js';
import { dropTestDatabase, testDatabase } from './postgres.js';
import { installContractCheck, type ContractViolation } from './contract.js';

export const ADMIN_PASSWORD = 'admin-test-password-1';

export type TestApp = {
  app: FastifyInstance;
  config: Config;
  /** The served root folder (files for tests go here). */
  root: string;
  /** A temporary folder outside the root (for symlink escapes and the like). */
  outside: string;
  login(username?: string, password?: string): Promise<string>;
  /** app.inject with X-Auth set from `token`. */
  request(token: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Responses that did not match their route's declared schema so far (close() fails on any). */
  contractViolations: ContractViolation[];
  close(): Promise<void>;
};

/** Builds the real app on a temporary root and database. */
export async function createTestApp(overrides: Record<string, unknown> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-test-'));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  const databaseFile = typeof overrides.database === 'string' ? overrides.database : path.join(base, 'burrow.db');
  const sharedDatabase = isPostgresUrl(databaseFile);
  const config = resolveConfig({
    root,
    cacheDir: path.join(base, 'cache'),
    webDist: path.join(base, 'web-dist'),
    logLevel: 'silent',
    adminPassword: ADMIN_PASSWORD,
    ...overrides,
    // On a PostgreSQL run, a fresh database on the test cluster stands in for the file. A
    // PostgreSQL URL given is used as it is: several apps over it are instances of one cluster.
    database: sharedDatabase ? databaseFile : await testDatabase(databaseFile),
  });
  const contractViolations: ContractViolation[] = [];
  const app = await buildApp(config, {
    ...options,
    beforeRoutes: async (instance) => {
      installContractCheck(instance, contractViolations);
      await options.beforeRoutes?.(instance);
    },
  });
  await app.ready();
  const testApp: TestApp = {
    app,
    config,
    root,
    outside,
    async login(username = 'admin', password = ADMIN_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
      if (response.statusCode !== 200) throw new Error(`login as ${username} failed: ${response.statusCode} ${response.body}`);
      return response.body;
    },
    request(token, injectOptions) {
      const headers = { ...(injectOptions.headers ?? {}) } as Record<string, string>;
      if (token) headers['x-auth'] = token;
      return app.inject({ ...injectOptions, headers });
    },
    contractViolations,
    async close() {
      await app.close();
      if (!sharedDatabase) await dropTestDatabase(databaseFile);
      fs.rmSync(base, { recursive: true, force: true });
      if (contractViolations.length > 0) {
        const lines = contractViolations.map((v) => `${v.method} ${v.url} → ${v.status}: ${v.problem}`);
        throw new Error(`responses that break the API contract:\n${[...new Set(lines)].join('\n')}`);
      }
    },
  };
  return testApp;
}

const NO_PERMISSIONS: Permissions = {
  admin: false,
  execute: false,
  create: false,
  rename: false,
  modify: false,
  delete: false,
  share: false,
  download: false,
};

const USER_PERMISSIONS: Permissions = {
  ...NO_PERMISSIONS,
  create: true,
  rename: true,
  modify: true,
  delete: true,
  share: true,
  download: true,
};

/** Inserts a user straight into the database (fast path for tests). Returns the record. */
export async function makeUser(
  testApp: TestApp,
  fields: { username: string; password?: string; scope?: string; perm?: Partial<Permissions>; rules?: Rule[]; lockPassword?: boolean; hideDotfiles?: boolean; commands?: string[] },
): Promise<UserRecord> {
  const { usersRepository, scopes } = testApp.app.services;
  const scope = fields.scope ?? '/';
  await scopes.scopeRoot(scope);
  return usersRepository.insert({
    username: fields.username,
    passwordHash: await hashPassword(fields.password ?? `${fields.username}-password-1`),
    scope,
    locale: 'en',
    viewMode: 'list',
    singleClick: false,
    redirectAfterCopyMove: true,
    hideDotfiles: fields.hideDotfiles ?? false,
    dateFormat: false,
    aceEditorTheme: '',
    sorting: { by: 'name', asc: false },
    lockPassword: fields.lockPassword ?? false,
    perm: { ...USER_PERMISSIONS, ...(fields.perm ?? {}) },
    commands: fields.commands ?? [],
    rules: fields.rules ?? [],
  });
}

/** Logs in as a user created by makeUser with its default password. */
export async function loginAs(testApp: TestApp, username: string, password = `${username}-password-1`): Promise<string> {
  return testApp.login(username, password);
}

;
