import { parentPort } from 'node:worker_threads';
import { createStatColumns, IS_DIR, IS_PRESENT, IS_SYMLINK, statEntries, transferListOf, type StatColumns } from './entry-stats.js';
import { typeEntries, writeItems, type EntryTypes, type WrittenItems } from './listing-items.js';
import { nameOrderOf, type NameOrder } from './sorting.js';

/**
 * A request from the pool: stat each name in `folder`. With `items`, the worker then types the
 * entries and finds their name order (see `typeEntries`, `nameOrderOf`), sent under
 * `items.typesId`, and writes their listing items (see `writeItems`), sent under `items.id`.
 * With `keep`, the worker keeps the names as those it holds of the folder (see `RestatRequest`);
 * with `restat`, it takes what that restat made when the names are still the same.
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
 * Stat, type, order and write again, now, the names held of `folder`, as items of the folder at
 * `folderVirtual`, while the folder is read anew: the request that follows with the fresh names
 * (`StatRequest.restat`) takes all that if its names are the same.
 */
export type RestatRequest = { restatId: number; folder: string; folderVirtual: string };

/** What a worker makes of its part of a listing. */
type ListingPart = { columns: StatColumns; types: EntryTypes; order: NameOrder | undefined; written: WrittenItems };

/** The names this worker was last given to keep: of which folder, and the index of the first one there. */
let held: { folder: string; names: string[]; first: number } | undefined;
/** What a restat made, for the request that names it. */
let restated: { id: number; names: string[]; first: number; folderVirtual: string; part: ListingPart } | undefined;

function sameNames(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

function statNames(folder: string, names: readonly string[]): StatColumns {
  const columns = createStatColumns(names.length);
  statEntries(folder, names, columns, 0, names.length);
  return columns;
}

/** Types stat'ed names and finds their name order (see `typeEntries`, `nameOrderOf`). */
function typeAndOrder(names: readonly string[], columns: StatColumns): { types: EntryTypes; order: NameOrder | undefined } {
  const types = typeEntries(names, columns);
  let links = false;
  const order = nameOrderOf(names, (index) => {
    const flags = columns.flags[index]!;
    if (flags & IS_SYMLINK) links = true;
    return flags & IS_PRESENT && !(flags & IS_SYMLINK) ? (flags & IS_DIR) !== 0 : undefined;
  });
  // Links may be folders or files, as the scope follows them: their order is not known here.
  return { types, order: links ? undefined : order };
}

function restat(request: RestatRequest): void {
  restated = undefined;
  if (held?.folder !== request.folder) return;
  const { names, first } = held;
  const columns = statNames(request.folder, names);
  const { types, order } = typeAndOrder(names, columns);
  const written = writeItems(request.folderVirtual, names, columns, types, first);
  restated = { id: request.restatId, names, first, folderVirtual: request.folderVirtual, part: { columns, types, order, written } };
}

/**
 * What the request's restat made, when it was made for these very names and items. What was made
 * for another request stays for that one: listings run side by side.
 */
function restatedFor(request: StatRequest): ListingPart | undefined {
  const made = restated;
  const items = request.items;
  if (!made || made.id !== request.restat) return undefined;
  restated = undefined;
  if (!items || made.first !== items.first || made.folderVirtual !== items.folderVirtual) return undefined;
  return sameNames(made.names, request.names) ? made.part : undefined;
}

// Runs in a worker thread: the stat objects and item text of a big folder are made and collected
// here, in a heap that holds almost nothing else, and only packed numbers and bytes go back.
parentPort?.on('message', (message: StatRequest | RestatRequest) => {
  if ('restatId' in message) {
    restat(message);
    return;
  }
  const request = message;
  const made = restatedFor(request);
  held = request.keep && request.items ? { folder: request.folder, names: request.names, first: request.items.first } : undefined;
  const items = request.items;
  if (made && items) {
    parentPort!.postMessage({ id: request.id, columns: made.columns, restated: true }, transferListOf(made.columns));
    parentPort!.postMessage({ id: items.typesId, types: made.types, order: made.order });
    parentPort!.postMessage({ id: items.id, written: made.written }, [made.written.bytes.buffer, made.written.offsets.buffer] as ArrayBuffer[]);
    return;
  }
  const columns = statNames(request.folder, request.names);
  if (!items) {
    parentPort!.postMessage({ id: request.id, columns }, transferListOf(columns));
    return;
  }
  // Each result goes as soon as it is known (copied, as this thread goes on with it): the main
  // thread scans the stats while the entries are typed, and orders them while their items are written.
  parentPort!.postMessage({ id: request.id, columns });
  const { types, order } = typeAndOrder(request.names, columns);
  parentPort!.postMessage({ id: items.typesId, types, order });
  const written = writeItems(items.folderVirtual, request.names, columns, types, items.first);
  parentPort!.postMessage({ id: items.id, written }, [written.bytes.buffer, written.offsets.buffer] as ArrayBuffer[]);
});
