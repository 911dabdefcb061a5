import type { IndexRow, SearchRepository } from './search.repository.js';
import { EntryKind, type WalkEntry } from './tree-walker.js';
import { compareKeys, walkKey } from './walk-order.js';

export type MergeCounts = { inserted: number; removed: number; updated: number };

export type MergeChecks = {
  /** The walk's view of this path may be out of date (it changed since the walk began). */
  isStale: (relativePath: string) => boolean;
  /** What is on disk at this path now (undefined when nothing is). */
  kindOnDisk: (relativePath: string) => EntryKind | undefined;
  /** A folder row went away. */
  onFolderRemoved?: (relativePath: string) => void;
};

const PAGE = 2_000;

/**
 * Merges walked entries (in walk order) with the index rows of the same key range, read in the
 * same order a page at a time, in one transaction: rows the walk lacks go, entries the index
 * lacks come in, kinds that changed are updated. Where the walk's view may be stale the disk
 * decides instead. The range runs from `after` (exclusive) to `until`, or to the end of the table.
 */
export function mergeBatch(
  repository: SearchRepository,
  walked: WalkEntry[],
  after: string,
  until: { key: string; inclusive: boolean } | undefined,
  checks: MergeChecks,
  counts: MergeCounts,
): void {
  repository.transaction(() => {
    let page: IndexRow[] = [];
    let pageIndex = 0;
    let cursor = after;
    let exhausted = false;
    const nextRow = (): { row: IndexRow; key: string } | undefined => {
      if (pageIndex >= page.length) {
        if (exhausted) return undefined;
        page = repository.rowsAfter(cursor, until, PAGE);
        pageIndex = 0;
        if (page.length < PAGE) exhausted = true;
        if (page.length === 0) return undefined;
      }
      const row = page[pageIndex++]!;
      const key = walkKey(row.path);
      cursor = key;
      return { row, key };
    };
    const dropRow = (row: IndexRow) => {
      if (checks.isStale(row.path)) {
        const kind = checks.kindOnDisk(row.path);
        if (kind !== undefined) {
          if (kind !== row.kind) repository.setKind(row.id, kind);
          return;
        }
      }
      repository.remove(row.id);
      if (row.kind === EntryKind.dir) checks.onFolderRemoved?.(row.path);
      counts.removed++;
    };

    let current = nextRow();
    for (const entry of walked) {
      const key = walkKey(entry.path);
      while (current && compareKeys(current.key, key) < 0) {
        dropRow(current.row);
        current = nextRow();
      }
      if (current && current.key === key) {
        if (current.row.kind !== entry.kind) {
          repository.setKind(current.row.id, checks.isStale(entry.path) ? (checks.kindOnDisk(entry.path) ?? entry.kind) : entry.kind);
          counts.updated++;
        }
        current = nextRow();
        continue;
      }
      const kind = checks.isStale(entry.path) ? checks.kindOnDisk(entry.path) : entry.kind;
      if (kind === undefined) continue;
      repository.insert({ path: entry.path, name: entry.name, kind });
      counts.inserted++;
    }
    while (current) {
      dropRow(current.row);
      current = nextRow();
    }
  });
}
