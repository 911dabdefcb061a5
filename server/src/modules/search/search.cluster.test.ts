import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { acquireTestCluster, type TestCluster } from '../../test-support/postgres.js';
import { eventually, makeTree } from './search.test-support.js';
import type { FastifyInstance } from 'fastify';

/**
 * Two instances on one PostgreSQL database and one root, as behind a load balancer: one shared
 * index, changes through either seen by both at once, full walks run by one of them.
 */

let cluster: TestCluster;
let a: TestApp;
let b: FastifyInstance;
let tokenA: string;
let tokenB: string;

const encodePath = (virtual: string) => virtual.split('/').map(encodeURIComponent).join('/');

beforeEach(async () => {
  cluster = await acquireTestCluster();
  const database = await cluster.createDatabase('search_cluster');
  a = await createTestApp({ database });
  makeTree(a.root, ['docs/alpha-report.txt', 'docs/beta-notes.md', 'music/alpha.mp3']);
  // The second instance: the same database and root, a cache of its own.
  b = await buildApp({ ...a.config, cacheDir: path.join(path.dirname(a.root), 'cache-b') });
  await b.ready();
  tokenA = await a.login();
  const login = await b.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'admin-test-password-1' } });
  tokenB = login.body;
  for (const app of [a.app, b]) {
    await app.services.search.ready();
    await app.services.cluster.listening();
  }
  await eventually(async () => {
    for (const app of [a.app, b]) await app.services.search.refresh();
    return a.app.services.search.status()?.complete === true && b.services.search.status()?.complete === true;
  }, 20_000, 'both instances to see the shared index complete');
}, 120_000);

afterEach(async () => {
  await b?.close();
  await a?.close();
  await cluster?.release();
}, 60_000);

async function paths(app: FastifyInstance, token: string, query: string): Promise<string[]> {
  const response = await app.inject({ method: 'GET', url: `/api/search/?query=${encodeURIComponent(query)}`, headers: { 'x-auth': token } });
  expect(response.statusCode).toBe(200);
  return response.body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { path: string }).path);
}

describe('the search index shared by two instances', () => {
  it('walks the tree once for both at start, and both answer from the one index', async () => {
    const walks = a.app.services.search.stats.fullWalks + b.services.search.stats.fullWalks;
    expect(walks).toBe(1);
    const rows = await sql<{ n: number; paths: number }>`SELECT count(*)::int AS n, count(DISTINCT path)::int AS paths FROM search_entries`.execute(a.app.services.db);
    expect(rows.rows[0]).toEqual({ n: 5, paths: 5 });
    expect(a.app.services.search.status()).toMatchObject({ complete: true });
    await b.services.search.refresh();
    expect(b.services.search.status()).toMatchObject({ complete: true, entries: 5 });
    for (const [app, token] of [[a.app, tokenA], [b, tokenB]] as const) {
      expect(await paths(app, token, 'alpha')).toEqual(['docs/alpha-report.txt', 'music/alpha.mp3']);
      expect(app.services.search.isIndexed(fs.realpathSync(a.root))).toBe(true);
    }
    expect(a.app.services.search.stats.liveSearches + b.services.search.stats.liveSearches).toBe(0);
  });

  it('sees changes made through either instance at once in the other', async () => {
    const resources = (app: FastifyInstance, token: string, method: string, virtual: string, options: { query?: string; body?: string } = {}) =>
      app.inject({ method: method as 'GET', url: `/api/resources${encodePath(virtual)}${options.query ? `?${options.query}` : ''}`, payload: options.body, headers: { 'x-auth': token } });

    expect((await resources(a.app, tokenA, 'POST', '/docs/gamma-plan.txt', { body: 'plan' })).statusCode).toBe(200);
    expect(await paths(b, tokenB, 'gamma')).toEqual(['docs/gamma-plan.txt']);

    expect((await resources(b, tokenB, 'DELETE', '/docs/alpha-report.txt')).statusCode).toBeLessThan(300);
    expect(await paths(a.app, tokenA, 'alpha')).toEqual(['music/alpha.mp3']);

    expect((await resources(b, tokenB, 'PATCH', '/docs', { query: `action=rename&destination=${encodeURIComponent('/papers')}` })).statusCode).toBe(200);
    await b.services.search.settled();
    expect(await paths(a.app, tokenA, 'plan')).toEqual(['papers/gamma-plan.txt']);
    expect(await paths(a.app, tokenA, 'notes')).toEqual(['papers/beta-notes.md']);

    // Both watchers saw the same changes too; the index still holds each path once.
    await a.app.services.search.settled();
    await b.services.search.settled();
    const rows = await sql<{ n: number; paths: number }>`SELECT count(*)::int AS n, count(DISTINCT path)::int AS paths FROM search_entries`.execute(a.app.services.db);
    expect(rows.rows[0]!.n).toBe(rows.rows[0]!.paths);
    expect(a.app.services.search.stats.liveSearches + b.services.search.stats.liveSearches).toBe(0);
  });

  it('runs a periodic rescan on one instance per period', async () => {
    const before = a.app.services.search.stats.fullWalks + b.services.search.stats.fullWalks;
    // A row the watchers cannot correct (no such file): only a walk finds it gone.
    await sql`INSERT INTO search_entries (path, name, name_lower, ext, kind) VALUES ('music/ghost-alpha.ogg', 'ghost-alpha.ogg', 'ghost-alpha.ogg', '.ogg', 0)`.execute(a.app.services.db);
    expect(await paths(b, tokenB, 'alpha')).toEqual(['docs/alpha-report.txt', 'music/alpha.mp3', 'music/ghost-alpha.ogg']);
    // The period has passed for both (as if its time were up): exactly one of them walks.
    await sql`UPDATE cluster_jobs SET started_at = 0 WHERE name = 'search.rescan'`.execute(a.app.services.db);
    const ran = await Promise.all([a.app.services.search.periodicRescan(), b.services.search.periodicRescan()]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(a.app.services.search.stats.fullWalks + b.services.search.stats.fullWalks).toBe(before + 1);
    // Within the period nobody walks again.
    expect(await Promise.all([a.app.services.search.periodicRescan(), b.services.search.periodicRescan()])).toEqual([false, false]);
    for (const [app, token] of [[a.app, tokenA], [b, tokenB]] as const) {
      expect(await paths(app, token, 'alpha')).toEqual(['docs/alpha-report.txt', 'music/alpha.mp3']);
    }
  });
});
