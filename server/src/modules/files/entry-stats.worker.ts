import { parentPort } from 'node:worker_threads';
import { createStatColumns, IS_DIR, IS_PRESENT, IS_SYMLINK, statEntries, transferListOf, type StatColumns } from './entry-stats.js';
import { typeEntries, writeItems } from './listing-items.js';
import { nameOrderOf } from './sorting.js';

/**
 * A request from the pool: stat each name in `folder`. With `items`, the worker then types the
 * entries and finds their name order (see `typeEntries`, `nameOrderOf`), sent under
 * `items.typesId`, and writes their listing items (see `writeItems`), sent under `items.id`.
 * With `keep`, the worker keeps the names as those it holds of the folder (see `RestatRequest`);
 * with `restat`, it takes the stats that restat made when the names are still the same.
 */
export type StatRequest = {
  id: number;
  folder: string;
  names: string[];
  items?: { id: number; typesId: number; folderVirtual: string; first: number };
  keep?: boolean;
  restat?: number;
};

/**
 * Stat again, now, the names held of `folder`, while the folder is read anew: the request that
 * follows with the fresh names (`StatRequest.restat`) takes these stats if its names are the same.
 */
export type RestatRequest = { restatId: number; folder: string };

/** The names this worker was last given to keep, and of which folder. */
let held: { folder: string; names: string[] } | undefined;
/** The stats a restat made, for the request that names it. */
let restated: { id: number; names: string[]; columns: StatColumns } | undefined;

function sameNames(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

/** The stats for a request: the ones its restat made when the names are the same, or new ones. */
function statsFor(request: StatRequest): { columns: StatColumns; restated: boolean } {
  const made = restated;
  restated = undefined;
  if (made && made.id === request.restat && sameNames(made.names, request.names)) return { columns: made.columns, restated: true };
  const columns = createStatColumns(request.names.length);
  statEntries(request.folder, request.names, columns, 0, request.names.length);
  return { columns, restated: false };
}

function restat(request: RestatRequest): void {
  restated = undefined;
  if (held?.folder !== request.folder) return;
  const columns = createStatColumns(held.names.length);
  statEntries(request.folder, held.names, columns, 0, held.names.length);
  restated = { id: request.restatId, names: held.names, columns };
}

// Runs in a worker thread: the stat objects and item text of a big folder are made and collected
// here, in a heap that holds almost nothing else, and only packed numbers and bytes go back.
parentPort?.on('message', (message: StatRequest | RestatRequest) => {
  if ('restatId' in message) {
    restat(message);
    return;
  }
  const request = message;
  const { columns, restated: reused } = statsFor(request);
  held = request.keep ? { folder: request.folder, names: request.names } : undefined;
  if (!request.items) {
    parentPort!.postMessage({ id: request.id, columns, restated: reused }, transferListOf(columns));
    return;
  }
  // Each result goes as soon as it is known (copied, as this thread goes on with it): the main
  // thread scans the stats while the entries are typed, and orders them while their items are written.
  parentPort!.postMessage({ id: request.id, columns, restated: reused });
  const types = typeEntries(request.names, columns);
  let links = false;
  const order = nameOrderOf(request.names, (index) => {
    const flags = columns.flags[index]!;
    if (flags & IS_SYMLINK) links = true;
    return flags & IS_PRESENT && !(flags & IS_SYMLINK) ? (flags & IS_DIR) !== 0 : undefined;
  });
  // Links may be folders or files, as the scope follows them: their order is not known here.
  parentPort!.postMessage({ id: request.items.typesId, types, order: links ? undefined : order });
  const written = writeItems(request.items.folderVirtual, request.names, columns, types, request.items.first);
  parentPort!.postMessage({ id: request.items.id, written }, [written.bytes.buffer, written.offsets.buffer] as ArrayBuffer[]);
});
