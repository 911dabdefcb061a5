import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../storage/db.js';
import { openSearchRepository, type SearchRepository } from './search.repository.js';

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

/** Every path in the index, in walk order. */
export function indexedPaths(repository: SearchRepository): string[] {
  return repository.rowsAfter('', undefined, 10_000_000).map((row) => row.path);
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
