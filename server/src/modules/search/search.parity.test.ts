import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../storage/db.js';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { acquireTestCluster, type TestCluster } from '../../test-support/postgres.js';
import type { UserRecord } from '../users/users.model.js';
import { createSearchService, type SearchService } from './search.service.js';

/**
 * The same tree and the same queries give the same answers, in the same order, from the SQLite
 * index, the PostgreSQL index and a live walk of the folders.
 */

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const WORDS = ['alpha', 'Beta', 'gamma', 'DELTA', 'straße', 'ümlaut', 'x', 'ab', 'a"b', 'ÆON', '\u{1f600}go', '50%_off', 'back\\slash', 'ǅwarf', 'a\u0001b', '\ufb01le'];
const EXTENSIONS = ['.txt', '.JPG', '.png', '.pdf', '.PDF', '.mp3', '.mkv', '.Mp4', ''];

let t: TestApp;
let cluster: TestCluster;
let db: Db;
let admin: UserRecord;
let sqliteIndex: SearchService;
let pgIndex: SearchService;
/** The PostgreSQL index with a candidate limit so small that every name query pages instead. */
let pgPaged: SearchService;
let live: SearchService;
const folders: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.app.services.usersRepository.findByUsername('admin'))!;
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  // More entries than one page of the PostgreSQL search, in nested folders.
  for (let group = 0; group < 6; group++) {
    const folder = `${pick(WORDS)}-${group}`;
    folders.push(`/${folder}`);
    for (let sub = 0; sub < 3; sub++) {
      const inner = path.join(t.root, folder, `${pick(WORDS)} ${sub}`);
      fs.mkdirSync(inner, { recursive: true });
      if (group === 0) folders.push(`/${folder}/${path.basename(inner)}`);
      for (let index = 0; index < 150; index++) fs.writeFileSync(path.join(inner, `${pick(WORDS)} ${pick(WORDS)}-${index}${pick(EXTENSIONS)}`), '');
    }
  }
  cluster = await acquireTestCluster();
  const url = await cluster.createDatabase('search_parity');
  db = await openDatabase(url);
  const sqliteFile = path.join(path.dirname(t.root), 'parity.db');
  await (await openDatabase(sqliteFile)).destroy();
  const make = (database: string, withDb?: Db, candidateLimit?: number) =>
    createSearchService({ config: { ...t.config, database }, scopes: t.app.services.scopes, log: quiet, db: withDb }, { rescanIntervalMs: 0, watch: false, candidateLimit });
  sqliteIndex = make(sqliteFile);
  pgIndex = make(url, db);
  pgPaged = make(url, db, 3);
  live = make(path.join(path.dirname(t.root), 'never-started.db'));
  for (const service of [sqliteIndex, pgIndex, pgPaged]) {
    await service.start();
    await service.ready();
  }
}, 180_000);

afterAll(async () => {
  for (const service of [sqliteIndex, pgIndex, pgPaged, live]) await service?.stop();
  await db?.destroy();
  await cluster?.release();
  await t?.close();
}, 60_000);

async function collect(service: SearchService, folder: string, query: string): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of await service.search(admin, folder, query, new AbortController().signal)) out.push(...batch.map((result) => `${result.dir ? 'd' : 'f'} ${result.path}`));
  return out;
}

describe('search on SQLite and PostgreSQL', () => {
  const queries = [
    'alpha', 'ALPHA', 'case:sensitive Beta', 'case:sensitive beta', 'case:sensitive ÆON', 'straße', 'STRASSE', 'ümlaut', 'x', 'ab', 'a"b', 'æon',
    '\u{1f600}go', '50%_off', '%', '_', 'back\\slash', '\\', 'ǆwarf', 'ﬁle', 'alpha gamma', 'type:image', 'type:pdf', 'type:PDF delta', 'type:audio type:video',
    'type:mp4', '"alpha beta"', 'a  b', '', '-1', 'a\u0001b', ' 2', '149.txt',
  ];

  it('index the same entries', async () => {
    const [sqliteRows, pgRows] = await Promise.all([sqliteIndex.store!.allRows(), pgIndex.store!.allRows()]);
    expect(sqliteRows.length).toBeGreaterThan(2_700);
    expect(pgRows.map((row) => [row.path, row.name, row.kind])).toEqual(sqliteRows.map((row) => [row.path, row.name, row.kind]));
    expect(sqliteIndex.status()?.entries).toBe(sqliteRows.length);
    expect(pgIndex.status()?.entries).toBe(pgRows.length);
  });

  it('answer every query with the same results in the same order, as a live walk does', async () => {
    let found = 0;
    for (const folder of ['/', ...folders]) {
      expect(sqliteIndex.isIndexed(fs.realpathSync(path.join(t.root, folder)))).toBe(true);
      for (const query of queries) {
        const expected = await collect(live, folder, query);
        expect(await collect(sqliteIndex, folder, query), `SQLite: ${query} in ${folder}`).toEqual(expected);
        expect(await collect(pgIndex, folder, query), `PostgreSQL: ${query} in ${folder}`).toEqual(expected);
        expect(await collect(pgPaged, folder, query), `PostgreSQL, paged: ${query} in ${folder}`).toEqual(expected);
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(10_000);
    expect(live.stats.indexedSearches).toBe(0);
    expect(pgIndex.stats.liveSearches + pgPaged.stats.liveSearches).toBe(0);
    expect(sqliteIndex.stats.liveSearches).toBe(0);
  }, 120_000);
});
