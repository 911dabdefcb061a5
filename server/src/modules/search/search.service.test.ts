import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/db.js';
import { createScopes } from '../../storage/scopes.js';
import { createTestApp, makeUser, type TestApp } from '../../test-support/app.js';
import { acquireTestCluster } from '../../test-support/postgres.js';
import type { UserRecord } from '../users/users.model.js';
import { createSearchService, type SearchOptions, type SearchService } from './search.service.js';
import { eventually, makeTree } from './search.test-support.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };

let t: TestApp;
let admin: UserRecord;
const services: SearchService[] = [];

beforeEach(async () => {
  // The app runs its own search service on its database; these tests run others beside it, each
  // on a database of its own over the same root.
  t = await createTestApp();
  admin = (await t.app.services.usersRepository.findByUsername('admin'))!;
});
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
  await t.close();
});

async function standalone(options: SearchOptions = {}, database = path.join(path.dirname(t.root), `search-${services.length}.db`)): Promise<SearchService> {
  const db = await openDatabase(database);
  await db.destroy();
  const service = createSearchService({ config: { ...t.config, database }, scopes: t.app.services.scopes, log: quiet }, { rescanIntervalMs: 0, ...options });
  services.push(service);
  return service;
}

async function collect(service: SearchService, user: UserRecord, folder: string, query: string, signal = new AbortController().signal) {
  const out: { dir: boolean; path: string }[] = [];
  for await (const batch of await service.search(user, folder, query, signal)) out.push(...batch);
  return out;
}

describe('search service', () => {
  it('hands its page cache back at any time, and searches as before afterwards', async () => {
    makeTree(t.root, ['docs/plan.txt', 'docs/old/plan-v1.txt', 'music/a.mp3']);
    const service = await standalone();
    service.releaseMemory();
    await service.start();
    await service.ready();
    expect(await collect(service, admin, '/', 'plan')).toHaveLength(2);
    service.releaseMemory();
    expect(await collect(service, admin, '/', 'plan')).toHaveLength(2);
    await service.stop();
    services.splice(services.indexOf(service), 1);
    service.releaseMemory();
  });

  it('on PostgreSQL keeps the index in the database, with the same answers', async () => {
    makeTree(t.root, ['music/a.mp3', 'music/b.flac', 'music/notes.txt', 'music/live/c.ogg']);
    const cluster = await acquireTestCluster();
    const cacheDir = path.join(path.dirname(t.root), 'pg-cache');
    let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      const database = await cluster.createDatabase('search');
      db = await openDatabase(database);
      const service = createSearchService({ config: { ...t.config, database, cacheDir }, scopes: t.app.services.scopes, log: quiet, db }, { rescanIntervalMs: 0 });
      services.push(service);
      await service.start();
      await service.ready();
      expect(fs.existsSync(path.join(cacheDir, 'search-index.db'))).toBe(false);
      expect(await db.selectFrom('search_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual({ n: 6 });
      expect(service.status()).toMatchObject({ complete: true, entries: 6 });
      expect(await collect(service, admin, '/music', 'type:audio')).toEqual([
        { dir: false, path: 'a.mp3' },
        { dir: false, path: 'b.flac' },
        { dir: false, path: 'live/c.ogg' },
      ]);
      expect(service.stats).toMatchObject({ indexedSearches: 1, liveSearches: 0 });
    } finally {
      for (const service of services.splice(0)) await service.stop();
      await db?.destroy();
      await cluster.release();
    }
  }, 120_000);

  it('walks the folder live when there is no index yet, with the same answers', async () => {
    makeTree(t.root, ['music/a.mp3', 'music/b.flac', 'music/notes.txt', 'music/live/c.ogg']);
    const service = await standalone();
    const results = await collect(service, admin, '/music', 'type:audio');
    expect(results).toEqual([
      { dir: false, path: 'a.mp3' },
      { dir: false, path: 'b.flac' },
      { dir: false, path: 'live/c.ogg' },
    ]);
    expect(service.stats).toMatchObject({ liveSearches: 1, indexedSearches: 0 });
    await service.start();
    await service.ready();
    expect(await collect(service, admin, '/music', 'type:audio')).toEqual(results);
    expect(service.stats).toMatchObject({ liveSearches: 1, indexedSearches: 1 });
  });

  it('answers from a live walk for folders the first build has not reached yet', async () => {
    makeTree(t.root, Array.from({ length: 40 }, (_, group) => Array.from({ length: 40 }, (_, index) => `g${String(group).padStart(2, '0')}/f${index}.txt`)).flat());
    const service = await standalone({ batchSize: 10, watch: false });
    await service.start();
    const last = fs.realpathSync(path.join(t.root, 'g39'));
    expect(service.isIndexed(last)).toBe(false);
    const results = await collect(service, admin, '/g39', 'f3');
    expect(results.map((result) => result.path)).toEqual(['f3.txt', 'f30.txt', 'f31.txt', 'f32.txt', 'f33.txt', 'f34.txt', 'f35.txt', 'f36.txt', 'f37.txt', 'f38.txt', 'f39.txt']);
    expect(service.stats.liveSearches).toBe(1);
    // Folders the build has passed are answered from the index while it goes on.
    await eventually(() => service.isIndexed(fs.realpathSync(path.join(t.root, 'g00'))), 20_000, 'the build to pass g00');
    await service.ready();
    expect(service.isIndexed(last)).toBe(true);
    expect(await collect(service, admin, '/g39', 'f3')).toEqual(results);
  });

  it('stops walking once the search is aborted', async () => {
    makeTree(t.root, Array.from({ length: 50 }, (_, group) => Array.from({ length: 20 }, (_, index) => `g${group}/f${index}.txt`)).flat());
    const service = await standalone();
    const controller = new AbortController();
    let seen = 0;
    for await (const batch of await service.search(admin, '/', '', controller.signal)) {
      seen += batch.length;
      if (seen >= 5) controller.abort();
    }
    expect(seen).toBe(5);
    expect(service.stats).toMatchObject({ activeSearches: 0, abortedSearches: 1 });
  });

  it('finds changes made outside Burrow after a rescan', async () => {
    makeTree(t.root, ['before.txt']);
    const service = await standalone({ watch: false });
    await service.start();
    await service.ready();
    makeTree(t.root, ['outside/after.txt']);
    fs.rmSync(path.join(t.root, 'before.txt'));
    expect(await collect(service, admin, '/', 'after')).toEqual([]);
    expect(await collect(service, admin, '/', 'before')).toEqual([{ dir: false, path: 'before.txt' }]);
    await service.rescan();
    expect(await collect(service, admin, '/', 'after')).toEqual([{ dir: false, path: 'outside/after.txt' }]);
    expect(await collect(service, admin, '/', 'before')).toEqual([]);
  });

  it('finds changes made outside Burrow through the watcher, without a rescan', async () => {
    makeTree(t.root, ['watched/']);
    const service = await standalone({ watch: true });
    await service.start();
    await service.ready();
    makeTree(t.root, ['watched/new-file.txt', 'fresh/deeper/inside.txt']);
    await eventually(async () => (await collect(service, admin, '/', 'inside')).length === 1, 10_000, 'the watcher to report the new folder');
    await eventually(async () => (await collect(service, admin, '/', 'new-file')).length === 1, 10_000, 'the watcher to report the new file');
    fs.rmSync(path.join(t.root, 'fresh'), { recursive: true });
    await eventually(async () => (await collect(service, admin, '/', 'inside')).length === 0, 10_000, 'the watcher to report the removal');
  });

  it('keeps its index across restarts and reconciles what changed meanwhile', async () => {
    makeTree(t.root, ['kept.txt', 'dropped.txt']);
    const database = path.join(path.dirname(t.root), 'persistent.db');
    const first = await standalone({ watch: false }, database);
    await first.start();
    await first.ready();
    await first.stop();
    fs.rmSync(path.join(t.root, 'dropped.txt'));
    makeTree(t.root, ['added.txt']);
    const second = await standalone({ watch: false }, database);
    await second.start();
    // The previous index answers at once (stale for a moment) while the reconcile runs.
    expect(second.isIndexed(fs.realpathSync(t.root))).toBe(true);
    await second.ready();
    expect((await collect(second, admin, '/', '.txt')).map((result) => result.path)).toEqual(['added.txt', 'kept.txt']);
  });

  it('starts over when the database belongs to another root', async () => {
    makeTree(t.root, ['here.txt']);
    const database = path.join(path.dirname(t.root), 'moved.db');
    const first = await standalone({ watch: false }, database);
    await first.start();
    await first.ready();
    await first.stop();
    const otherRoot = path.join(t.outside, 'other-root');
    makeTree(otherRoot, ['there.txt']);
    const db = await openDatabase(database);
    await db.destroy();
    const config = { ...t.config, root: otherRoot, database };
    const second = createSearchService({ config, scopes: createScopes(config, t.app.services.settings), log: quiet }, { watch: false, rescanIntervalMs: 0 });
    services.push(second);
    await second.start();
    expect(second.isIndexed(fs.realpathSync(otherRoot))).toBe(false);
    await second.ready();
    const bob = await makeUser(t, { username: 'bob' });
    expect((await collect(second, bob, '/', '.txt')).map((result) => result.path)).toEqual(['there.txt']);
  });
});
