import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { createCoreServices, type CoreServices } from '../core-services.js';
import { bootstrapAdmin } from '../modules/users/bootstrap.js';
import { acquireTestCluster, type TestCluster } from '../test-support/postgres.js';

// Instances of a cluster started together on an empty PostgreSQL database race for the first run:
// the settings, the signing key of the sessions and the first admin are made once, and the
// instances that lose the race take what the winner stored instead of failing.
const INSTANCES = 4;
let postgres: TestCluster;
let root: string;
const opened: CoreServices[] = [];

beforeAll(async () => {
  postgres = await acquireTestCluster();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-first-run-'));
}, 60_000);
afterAll(async () => {
  for (const core of opened) {
    await core.cluster.close();
    await core.db.destroy();
  }
  await postgres.release();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the first run on a shared database', () => {
  it('gives instances starting at once the same settings, signing key and admin, and fails none', async () => {
    const database = await postgres.createDatabase('first_run');
    const config = resolveConfig({ database, root, adminPassword: 'first-run-admin-password' });
    const log = { warn: () => undefined };
    const cores = await Promise.all(Array.from({ length: INSTANCES }, () => createCoreServices(config, { log })));
    opened.push(...cores);
    const keys = cores.map((core) => Buffer.from(core.settings.signingKey()).toString('hex'));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toHaveLength(128);
    expect(new Set(cores.map((core) => JSON.stringify(core.settings.get()))).size).toBe(1);

    const printed: string[] = [];
    const silent = { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Parameters<typeof bootstrapAdmin>[0]['log'];
    await Promise.all(cores.map((core) => bootstrapAdmin({ config: { ...config, adminPassword: undefined }, users: core.usersRepository, scopes: core.scopes, log: silent, onPassword: (password) => printed.push(password) })));
    const users = await cores[0]!.usersRepository.list();
    expect(users.map((user) => user.username)).toEqual(['admin']);
    // The one generated password printed is the one stored.
    expect(printed).toHaveLength(1);
    for (const core of cores) expect(await core.auth.login({ username: 'admin', password: printed[0]! }, { ip: '127.0.0.1', headers: {} })).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
