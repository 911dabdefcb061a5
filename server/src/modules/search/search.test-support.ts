import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../storage/db.js';
import { isPostgresUrl } from '../../config.js';
import { dropTestDatabase, testDatabase } from '../../test-support/postgres.js';
import { sqliteIndexStore, type IndexStore } from './index-store.js';
import { pgIndexStore } from './pg-index-store.js';
import { openSearchRepository, type IndexRow, type SearchRepository } from './search.repository.js';

/** A migrated database in a temporary folder, with the search repository open on it. */
export async function openTestRepository(): Promise<{ repository: SearchRepository; base: string; database: string; close(): void }> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-search-')));
  const database = path.join(base, 'burrow.db');
  const db = await openDatabase(database);
  await db.destroy();
  const repository = openSearchRepository(database);
  return {
    repository,
    base,
    database,
    close() {
      repository.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Creates files (names ending in `/` are folders) below `root`. */
export function makeTree(root: string, entries: string[]): void {
  for (const entry of entries) {
    const target = path.join(root, entry);
    if (entry.endsWith('/')) fs.mkdirSync(target, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, '');
    }
  }
}

/**
 * A migrated, empty index on the run's engine (BURROW_TEST_DATABASE): the embedded SQLite one,
 * or the shared one in a fresh PostgreSQL database. `url` opens a second store on the same index.
 */
export async function openTestStore(): Promise<{ store: IndexStore; base: string; database: string; open(): Promise<IndexStore>; close(): Promise<void> }> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-search-')));
  const file = path.join(base, 'burrow.db');
  const database = await testDatabase(file);
  const dbs: Awaited<ReturnType<typeof openDatabase>>[] = [];
  const stores: IndexStore[] = [];
  async function open(): Promise<IndexStore> {
    const db = await openDatabase(database);
    let store: IndexStore;
    if (isPostgresUrl(database)) {
      dbs.push(db);
      store = pgIndexStore(db);
    } else {
      await db.destroy();
      store = sqliteIndexStore(openSearchRepository(database));
    }
    stores.push(store);
    return store;
  }
  const store = await open();
  return {
    store,
    base,
    database,
    open,
    async close() {
      for (const each of stores) await each.close();
      for (const db of dbs) await db.destroy();
      await dropTestDatabase(file);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Every path in the index, in walk order. */
export function indexedPaths(repository: SearchRepository): string[];
export function indexedPaths(store: IndexStore): Promise<string[]>;
export function indexedPaths(index: SearchRepository | IndexStore): string[] | Promise<string[]> {
  if ('allRows' in index) return index.allRows().then((rows) => rows.map((row) => row.path));
  return index.rowsAfter('', undefined, 10_000_000).map((row) => row.path);
}

/** The row of one path, or undefined. */
export async function findRow(store: IndexStore, relativePath: string): Promise<IndexRow | undefined> {
  return (await store.allRows()).find((row) => row.path === relativePath);
}

/** Every path below `root` on disk (links not followed), sorted plainly. */
export function diskPaths(root: string, relative = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    out.push(child);
    if (entry.isDirectory()) out.push(...diskPaths(root, child));
  }
  return out;
}

/** Polls `check` until it holds or `ms` pass. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
