import path from 'node:path';
import { mergeBatch, type MergeChecks, type MergeCounts } from './index-merge.js';
import { searchIndex, type IndexSearchOptions } from './index-search.js';
import type { SearchQuery } from './search-query.js';
import type { IndexRow, SearchRepository } from './search.repository.js';
import { EntryKind, type WalkEntry } from './tree-walker.js';
import { parentPath } from './walk-order.js';

/**
 * The name index as the indexer and the search service use it, on either engine: the embedded
 * SQLite index (one process, synchronous statements, each operation one synchronous step) or
 * the PostgreSQL one that every instance of a cluster shares. Operations are coarse (a merge of a
 * whole walked batch, one path's placement) so that each is one transaction and the embedded
 * engine pays no per-row asynchronous cost.
 */
export type IndexStore = {
  /** True when other instances read and write the same index (PostgreSQL). */
  readonly shared: boolean;
  close(): Promise<void>;
  /** Hands caches back after a build (SQLite's page cache); nothing to do on PostgreSQL. */
  releaseMemory(): void;
  getState(key: string): Promise<string | undefined>;
  setState(key: string, value: string): Promise<void>;
  /** Forgets every entry. */
  clear(): Promise<void>;
  /**
   * Makes the index one of `root`: when it was built for another root (or never), forgets every
   * entry and marks it incomplete, atomically (instances starting together agree).
   */
  adopt(root: string): Promise<void>;
  count(): Promise<number>;
  /** The number of entries last counted, for status reports that cannot wait. */
  lastCount(): number;
  /**
   * Merges walked entries (in walk order) with the rows of the key range from `after`
   * (exclusive) to `until`, in one transaction (see index-merge).
   */
  merge(walked: WalkEntry[], after: string, until: { key: string; inclusive: boolean } | undefined, checks: MergeChecks, counts: MergeCounts): Promise<void>;
  /** Removes an entry and everything below it; returns how many rows went. */
  removeSubtree(relativePath: string): Promise<number>;
  /**
   * Brings one path's row in line with `kind` found on disk, adding rows for folders above it
   * that are missing (`kindOnDisk` confirms them). Says whether the row is a folder new to the
   * index (its contents need indexing) and whether a folder's subtree was dropped.
   */
  place(relativePath: string, kind: EntryKind, kindOnDisk: (relativePath: string) => EntryKind | undefined): Promise<{ newFolder: boolean; droppedSubtree: boolean }>;
  /** Rows below `prefix` that may match `query`, in walk order, in batches (see index-search). */
  search(prefix: string, query: SearchQuery, signal: AbortSignal, options: IndexSearchOptions): AsyncGenerator<IndexRow[]>;
  /** Every row in walk order (tests and tools). */
  allRows(): Promise<IndexRow[]>;
};

/** `place` over the synchronous repository, in one transaction. */
function placeSync(
  repository: SearchRepository,
  relative: string,
  kind: EntryKind,
  kindOnDisk: (relativePath: string) => EntryKind | undefined,
): { newFolder: boolean; droppedSubtree: boolean } {
  const outcome = { newFolder: false, droppedSubtree: false };
  repository.transaction(() => {
    // Folders above may be missing: a notice may arrive bottom-up.
    let parent = parentPath(relative);
    const missing: string[] = [];
    while (parent !== '' && !repository.find(parent)) {
      missing.push(parent);
      parent = parentPath(parent);
    }
    for (const folder of missing.reverse()) {
      if (kindOnDisk(folder) !== EntryKind.dir) break;
      repository.insert({ path: folder, name: path.posix.basename(folder), kind: EntryKind.dir });
    }
    const known = repository.find(relative);
    if (!known) {
      repository.insert({ path: relative, name: path.posix.basename(relative), kind });
      outcome.newFolder = kind === EntryKind.dir;
    } else if (known.kind !== kind) {
      if (known.kind === EntryKind.dir) {
        repository.removeSubtree(relative);
        outcome.droppedSubtree = true;
        repository.insert({ path: relative, name: known.name, kind });
      } else repository.setKind(known.id, kind);
      outcome.newFolder = kind === EntryKind.dir;
    }
  });
  return outcome;
}

/** The embedded index: every operation is the synchronous repository's, run in one step. */
export function sqliteIndexStore(repository: SearchRepository): IndexStore {
  return {
    shared: false,
    async close() {
      repository.close();
    },
    releaseMemory() {
      repository.releaseMemory();
    },
    async getState(key) {
      return repository.getState(key);
    },
    async setState(key, value) {
      repository.setState(key, value);
    },
    async clear() {
      repository.clear();
    },
    async adopt(root) {
      if (repository.getState('root') === root) return;
      repository.clear();
      repository.setState('root', root);
      repository.setState('complete', '0');
    },
    async count() {
      return repository.count();
    },
    lastCount() {
      return repository.count();
    },
    async merge(walked, after, until, checks, counts) {
      mergeBatch(repository, walked, after, until, checks, counts);
    },
    async removeSubtree(relative) {
      return repository.removeSubtree(relative);
    },
    async place(relative, kind, kindOnDisk) {
      return placeSync(repository, relative, kind, kindOnDisk);
    },
    search(prefix, query, signal, options) {
      return searchIndex(repository, prefix, query, signal, options);
    },
    async allRows() {
      return repository.rowsAfter('', undefined, Number.MAX_SAFE_INTEGER);
    },
  };
}
