import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchIndex } from './index-search.js';
import { matchesName, parseSearchQuery } from './search-query.js';
import { trigramQuery, type IndexRow } from './search.repository.js';
import { openTestRepository } from './search.test-support.js';
import { EntryKind } from './tree-walker.js';
import { compareKeys, isSameOrBelow, walkKey } from './walk-order.js';

let test: Awaited<ReturnType<typeof openTestRepository>>;
const all: { path: string; name: string; kind: number }[] = [];

const WORDS = ['alpha', 'Beta', 'gamma', 'DELTA', 'straße', 'ümlaut', 'x', 'ab', 'a"b', 'ÆON', '\u{1f600}go'];
const EXTENSIONS = ['.txt', '.JPG', '.png', '.pdf', '.PDF', '.mp3', '.mkv', ''];

beforeAll(async () => {
  test = await openTestRepository();
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  test.repository.transaction(() => {
    for (let group = 0; group < 6; group++) {
      const folder = `${pick(WORDS)}-${group}`;
      all.push({ path: folder, name: folder, kind: EntryKind.dir });
      for (let index = 0; index < 400; index++) {
        const name = `${pick(WORDS)} ${pick(WORDS)}-${index}${pick(EXTENSIONS)}`;
        all.push({ path: `${folder}/${name}`, name, kind: EntryKind.file });
      }
    }
    for (const entry of all) test.repository.insert({ ...entry, kind: entry.kind as 0 });
  });
});
afterAll(() => test.close());

async function run(prefix: string, raw: string, options = { candidateLimit: 20_000, idChunk: 13, sliceSize: 97, hitSliceSize: 101 }): Promise<string[]> {
  const query = parseSearchQuery(raw);
  const out: string[] = [];
  for await (const rows of searchIndex(test.repository, prefix, query, new AbortController().signal, options)) {
    out.push(...rows.filter((row: IndexRow) => matchesName(row.name, query)).map((row) => row.path));
  }
  return out;
}

function expected(prefix: string, raw: string): string[] {
  const query = parseSearchQuery(raw);
  return all
    .filter((entry) => entry.path !== prefix && isSameOrBelow(prefix, entry.path) && matchesName(entry.name, query))
    .map((entry) => entry.path)
    .sort((a, b) => compareKeys(walkKey(a), walkKey(b)));
}

describe('index search', () => {
  const queries = ['alpha', 'ALPHA', 'case:sensitive Beta', 'case:sensitive beta', 'straße', 'STRASSE', 'ümlaut', 'x', 'ab', 'a"b', 'æon', '\u{1f600}go', 'alpha gamma', 'type:image', 'type:pdf', 'type:PDF delta', 'type:audio type:video', '"alpha beta"', 'a  b', ''];

  it('finds exactly what a full scan finds, in walk order, through either plan', async () => {
    const folder = all[0]!.path;
    for (const raw of queries) {
      for (const prefix of ['', folder]) {
        const want = expected(prefix, raw);
        expect(await run(prefix, raw), `${raw} in "${prefix}" (trigram candidates)`).toEqual(want);
        // A tiny candidate limit forces the staged candidates merged slice by slice.
        expect(await run(prefix, raw, { candidateLimit: 1, idChunk: 1, sliceSize: 50, hitSliceSize: 50 }), `${raw} in "${prefix}" (staged)`).toEqual(want);
      }
    }
  });

  it('uses the trigram table for name terms and the walk-order index for slices', () => {
    expect(test.repository.explain('candidates').join('\n')).toMatch(/search_names VIRTUAL TABLE/);
    expect(test.repository.explain('rows').join('\n')).toMatch(/search_entries USING INTEGER PRIMARY KEY/);
    expect(test.repository.explain('hits').join('\n')).toMatch(/search_entries USING INDEX search_entries_walk[\s\S]*search_hits (EXISTS )?USING PRIMARY KEY/);
    expect(test.repository.explain('slice').join('\n')).toMatch(/COVERING INDEX search_entries_walk/);
  });

  it('releases the staged candidates of a search once it ends or stops', async () => {
    for await (const rows of searchIndex(test.repository, '', parseSearchQuery('alpha'), new AbortController().signal, { candidateLimit: 1, idChunk: 1, sliceSize: 10, hitSliceSize: 10 })) {
      expect(rows.length).toBeGreaterThan(0);
      break;
    }
    expect(test.repository.stagedCount()).toBe(0);
  });

  it('builds trigram queries that need every trigram of ANY term', () => {
    expect(trigramQuery(['abcd'])).toBe('"abc" AND "bcd"');
    expect(trigramQuery(['abc', 'x"yz'])).toBe('("abc") OR ("x""y" AND """yz")');
    expect(test.repository.candidateIds(trigramQuery(['alpha']), 100_000).length).toBe(all.filter((entry) => entry.name.toLowerCase().includes('alpha')).length);
  });

  it('stops between slices once aborted', async () => {
    const controller = new AbortController();
    let batches = 0;
    for await (const rows of searchIndex(test.repository, '', parseSearchQuery('x'), controller.signal, { candidateLimit: 0, idChunk: 1, sliceSize: 10, hitSliceSize: 10 })) {
      expect(rows.length).toBeGreaterThan(0);
      batches++;
      controller.abort();
    }
    expect(batches).toBe(1);
  });
});
