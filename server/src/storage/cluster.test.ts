import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.js';
import { createCluster, RESYNC, type Cluster } from './cluster.js';
import { acquireTestCluster, type TestCluster } from '../test-support/postgres.js';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../test-support/app.js';

/** Waits until `check` holds, for at most `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cluster on SQLite (one instance)', () => {
  let dir: string;
  let db: Db;
  let cluster: Cluster;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-cluster-'));
    db = await openDatabase(path.join(dir, 'burrow.db'));
    cluster = createCluster(db);
  });
  afterAll(async () => {
    await cluster.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is not shared, and publishing reaches nobody', async () => {
    expect(cluster.shared).toBe(false);
    const heard: string[] = [];
    cluster.on('t', (payload) => heard.push(payload));
    await cluster.publish('t', 'x');
    await cluster.listening();
    expect(heard).toEqual([]);
  });

  it('runs a periodic job once per period', async () => {
    let runs = 0;
    const job = async () => {
      runs += 1;
    };
    expect(await cluster.once('job', 60_000, job)).toBe(true);
    expect(await cluster.once('job', 60_000, job)).toBe(false);
    expect(runs).toBe(1);
    // Another job has its own period; a period of zero is always due.
    expect(await cluster.once('other', 60_000, job)).toBe(true);
    expect(await cluster.once('now', 0, job)).toBe(true);
    expect(await cluster.once('now', 0, job)).toBe(true);
    expect(runs).toBe(4);
  });

  it('gives a lease to one holder at a time, and again once released or expired', async () => {
    const first = await cluster.lease('upload:1', 60_000);
    expect(first).toBeDefined();
    expect(await cluster.lease('upload:1', 60_000)).toBeUndefined();
    expect(await first!.renew()).toBe(true);
    await first!.release();
    const second = await cluster.lease('upload:1', 50);
    expect(second).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 80));
    const third = await cluster.lease('upload:1', 60_000);
    expect(third).toBeDefined();
    // The expired holder lost it: renewing fails and releasing leaves the new holder's claim.
    expect(await second!.renew()).toBe(false);
    await second!.release();
    expect(await cluster.lease('upload:1', 60_000)).toBeUndefined();
    await third!.release();
  });
});

describe('cluster on PostgreSQL (several instances)', () => {
  let pg: TestCluster;
  let url: string;
  let dbs: Db[] = [];
  let a: Cluster;
  let b: Cluster;
  beforeAll(async () => {
    pg = await acquireTestCluster();
    url = await pg.createDatabase('cluster');
    dbs = [await openDatabase(url, { poolSize: 2 }), await openDatabase(url, { poolSize: 2 })];
    a = createCluster(dbs[0]!, { url });
    b = createCluster(dbs[1]!, { url });
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const db of dbs) await db.destroy();
    await pg?.release();
  });

  it('delivers messages to the other instances only', async () => {
    expect(a.shared).toBe(true);
    const heardA: string[] = [];
    const heardB: string[] = [];
    a.on('greeting', (payload) => heardA.push(payload));
    b.on('greeting', (payload) => heardB.push(payload));
    b.on('other', () => heardB.push('wrong topic'));
    await Promise.all([a.listening(), b.listening()]);
    await a.publish('greeting', 'hello');
    await eventually(() => heardB.length > 0);
    expect(heardB).toEqual(['hello']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heardA).toEqual([]);
  });

  it('sends a payload too large to notify as a resync', async () => {
    const heard: string[] = [];
    b.on('big', (payload) => heard.push(payload));
    await b.listening();
    await a.publish('big', 'x'.repeat(20_000));
    await eventually(() => heard.length > 0);
    expect(heard).toEqual([RESYNC]);
  });

  it('runs a periodic job on one instance per period', async () => {
    let runs = 0;
    const job = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const ran = await Promise.all([a.once('sweep', 60_000, job), b.once('sweep', 60_000, job), a.once('sweep', 60_000, job), b.once('sweep', 60_000, job)]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
  });

  it('gives a lease to one instance; the other gets it once it lapses', async () => {
    const held = await Promise.all([a.lease('dav:/x', 300), b.lease('dav:/x', 300)]);
    expect(held.filter(Boolean)).toHaveLength(1);
    expect(await b.lease('dav:/x', 300)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 350));
    const taken = await b.lease('dav:/x', 60_000);
    expect(taken).toBeDefined();
    expect(await held.find(Boolean)!.renew()).toBe(false);
    await taken!.release();
    expect(await a.lease('dav:/x', 1000)).toBeDefined();
  });

  it('listens again after its connection is cut, and tells handlers to resync', async () => {
    const heard: string[] = [];
    b.on('after-cut', (payload) => heard.push(payload));
    await b.listening();
    // Cut every listening connection but this statement's own.
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`.execute(dbs[0]!);
    await eventually(() => heard.includes(RESYNC), 15_000);
    await b.listening();
    await a.publish('after-cut', 'still heard');
    await eventually(() => heard.includes('still heard'), 5000);
  }, 30_000);

  describe('two apps over one database', () => {
    let one: TestApp;
    let two: TestApp;
    beforeAll(async () => {
      const shared = await pg.createDatabase('apps');
      one = await createTestApp({ database: shared });
      two = await createTestApp({ database: shared, root: one.root });
      await Promise.all([one.app.services.cluster.listening(), two.app.services.cluster.listening()]);
    }, 120_000);
    afterAll(async () => {
      await one?.close();
      await two?.close();
    });

    it('a settings change made on one instance is served by the other within a second', async () => {
      const token = await login(one);
      const tokenTwo = await login(two);
      const current = await one.app.inject({ method: 'GET', url: '/api/settings', headers: { 'x-auth': token } });
      expect(current.statusCode).toBe(200);
      const body = current.json() as { branding: { name: string } } & Record<string, unknown>;
      const saved = await one.app.inject({ method: 'PUT', url: '/api/settings', headers: { 'x-auth': token }, payload: { ...body, branding: { ...body.branding, name: 'Shared name' } } });
      expect(saved.statusCode).toBe(200);
      const started = Date.now();
      await eventually(async () => {
        const seen = await two.app.inject({ method: 'GET', url: '/api/settings', headers: { 'x-auth': tokenTwo } });
        return (seen.json() as { branding: { name: string } }).branding.name === 'Shared name';
      }, 1000);
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
});

async function login(testApp: TestApp): Promise<string> {
  const response = await testApp.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  expect(response.statusCode).toBe(200);
  return response.body;
}
