import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IndexRow, KeyRange, RowFilter, SearchRepository } from './search.repository.js';
import { trigramQuery } from './search.repository.js';
import { candidateExtensions, effectiveTerms, type SearchQuery } from './search-query.js';
import { compareKeys, subtreeHigh, subtreeLow, walkKey } from './walk-order.js';

/** Rows handed on per batch, so checking and writing them stays a short step too. */
const BATCH = 2_000;

export type IndexSearchOptions = {
  /** Up to this many trigram candidates are read by id and sorted (default 50,000). */
  candidateLimit: number;
  /** Candidates read per step (default 4,000). */
  idChunk: number;
  /** Rows examined per step of a scan, between which the event loop runs (default 5,000). */
  sliceSize: number;
  /** Index entries examined per step when large candidate lists are merged in (default 50,000). */
  hitSliceSize: number;
};

/** Numbers for the staged candidate lists of concurrent searches. */
let nextHitList = 1;

/** Terms the trigram index can narrow, in the form it stores (lower case), or undefined. */
export function trigramTerms(query: SearchQuery): string[] | undefined {
  const terms = effectiveTerms(query);
  if (terms.length === 0) return undefined;
  const usable: string[] = [];
  for (const term of terms) {
    // Shorter terms have no trigram. For a case-sensitive term the lower-cased one is a safe
    // superset only when lower-casing is per character, which holds for ASCII.
    if (Array.from(term).length < 3) return undefined;
    // eslint-disable-next-line no-control-regex -- tests for ASCII, control characters included
    if (query.caseSensitive && !/^[\x00-\x7f]*$/.test(term)) return undefined;
    usable.push(query.caseSensitive ? term.toLowerCase() : term);
  }
  return usable;
}

function rowFilterOf(query: SearchQuery): RowFilter {
  return { terms: effectiveTerms(query), caseSensitive: query.caseSensitive, extensions: candidateExtensions(query) };
}

/**
 * Walks a key range in slices of `size` index entries, each read by `read`, with the event loop
 * running in between; stops early once aborted.
 */
async function* sliced(repository: SearchRepository, range: KeyRange, size: number, signal: AbortSignal, read: (after: string, until: string | undefined) => IndexRow[]): AsyncGenerator<IndexRow[]> {
  let after = range.low;
  while (!signal.aborted) {
    const end = repository.sliceEnd(after, range, size);
    const rows = read(after, end);
    if (rows.length > 0) yield rows;
    if (end === undefined) return;
    after = end;
    await nextTurn();
  }
}

/**
 * Index rows below `prefix` (a root-relative folder, '' for the root) that may match `query`,
 * in walk order, in batches; callers still check every row exactly. Three plans:
 *
 * - up to `candidateLimit` trigram candidates: read them by id, a chunk per step, and sort them;
 * - many: set them aside in a temporary table and walk the folder's range of the walk-order
 *   index in slices, reading only the rows that are candidates;
 * - no usable trigram (short terms, type-only queries): walk the range in slices and filter
 *   every row.
 */
export async function* searchIndex(
  repository: SearchRepository,
  prefix: string,
  query: SearchQuery,
  signal: AbortSignal,
  options: IndexSearchOptions,
): AsyncGenerator<IndexRow[]> {
  const range: KeyRange = { low: subtreeLow(prefix), high: subtreeHigh(prefix) };
  const filter = rowFilterOf(query);
  const terms = trigramTerms(query);
  if (!terms) {
    yield* sliced(repository, range, options.sliceSize, signal, (after, until) => repository.scanRows(after, until, range, filter));
    return;
  }
  const match = trigramQuery(terms);
  const ids = repository.candidateIds(match, options.candidateLimit + 1);
  if (ids.length <= options.candidateLimit) {
    let rows: IndexRow[] = [];
    for (let start = 0; start < ids.length; start += options.idChunk) {
      if (start > 0) {
        await nextTurn();
        if (signal.aborted) return;
      }
      rows = rows.concat(repository.rowsWithIds(ids.slice(start, start + options.idChunk), range, filter));
    }
    // Each step came back sorted; the sort merges those runs.
    if (ids.length > options.idChunk) {
      const keyed = rows.map((row) => ({ row, key: walkKey(row.path) }));
      keyed.sort((a, b) => compareKeys(a.key, b.key));
      rows = keyed.map((entry) => entry.row);
    }
    for (let start = 0; start < rows.length; start += BATCH) {
      if (signal.aborted) return;
      yield rows.slice(start, start + BATCH);
    }
    return;
  }
  const list = nextHitList++;
  repository.stageHits(list, match);
  try {
    yield* sliced(repository, range, options.hitSliceSize, signal, (after, until) => repository.hitRows(list, after, until, range, filter));
  } finally {
    try {
      repository.releaseHits(list);
    } catch {
      // The index closed meanwhile (shutdown); the temporary list went with its connection.
    }
  }
}
