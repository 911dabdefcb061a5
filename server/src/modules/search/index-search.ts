import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IndexRow, KeyRange, RowFilter, SearchRepository } from './search.repository.js';
import { trigramQuery } from './search.repository.js';
import { candidateExtensions, effectiveTerms, type SearchQuery } from './search-query.js';
import { subtreeHigh, subtreeLow } from './walk-order.js';

export type IndexSearchOptions = {
  /** Above this many trigram candidates a query scans its folder's rows instead (default 20,000). */
  candidateLimit: number;
  /** Rows examined per step of a scan, between which the event loop runs (default 5,000). */
  sliceSize: number;
};

/** Terms the trigram index can narrow, in the form it stores (lower case), or undefined. */
function trigramTerms(query: SearchQuery): string[] | undefined {
  const terms = effectiveTerms(query);
  if (terms.length === 0) return undefined;
  const usable: string[] = [];
  for (const term of terms) {
    // Shorter terms have no trigram. For a case-sensitive term the lower-cased one is a safe
    // superset only when lower-casing is per character, which holds for ASCII.
    if (Array.from(term).length < 3) return undefined;
    if (query.caseSensitive && !/^[\x00-\x7f]*$/.test(term)) return undefined;
    usable.push(query.caseSensitive ? term.toLowerCase() : term);
  }
  return usable;
}

export function rowFilterOf(query: SearchQuery): RowFilter {
  return { terms: effectiveTerms(query), caseSensitive: query.caseSensitive, extensions: candidateExtensions(query) };
}

/**
 * Index rows below `prefix` (a root-relative folder, '' for the root) that may match `query`,
 * in walk order, in batches. Selective name queries go through the trigram index and one sorted
 * lookup; anything the trigrams cannot narrow enough (short terms, type-only queries, very common
 * terms) walks the folder's rows in slices of bounded work. Callers still check every row.
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
  if (terms) {
    const match = trigramQuery(terms);
    if (repository.countCandidates(match, options.candidateLimit + 1) <= options.candidateLimit) {
      const rows = repository.candidateRows(match, range, filter);
      if (rows.length > 0) yield rows;
      return;
    }
  }
  let after = range.low;
  while (!signal.aborted) {
    const end = repository.sliceEnd(after, range, options.sliceSize);
    const rows = repository.scanRows(after, end, range, filter);
    if (rows.length > 0) yield rows;
    if (end === undefined) return;
    after = end;
    await nextTurn();
  }
}
