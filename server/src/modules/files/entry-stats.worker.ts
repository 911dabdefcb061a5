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

/**
 * Stats, types, orders and writes a part of a listing: `names`, the first of them at index
 * `first` of the folder's names, as items of the folder at `folderVirtual`. `told` hears the
 * stats, then the types and order, as soon as each is made.
 */
function listPart(
  folder: string,
  folderVirtual: string,
  names: readonly string[],
  first: number,
  told?: { stats(columns: StatColumns): void; typed(types: EntryTypes, order: NameOrder | undefined): void },
): ListingPart {
  const columns = statNames(folder, names);
  told?.stats(columns);
  const types = typeEntries(names, columns);
  let links = false;
  const found = nameOrderOf(names, (index) => {
    const flags = columns.flags[index]!;
    if (flags & IS_SYMLINK) links = true;
    return flags & IS_PRESENT && !(flags & IS_SYMLINK) ? (flags & IS_DIR) !== 0 : undefined;
  });
  // Links may be folders or files, as the scope follows them: their order is not known here.
  const order = links ? undefined : found;
  told?.typed(types, order);
  return { columns, types, order, written: writeItems(folderVirtual, names, columns, types, first) };
}

function statNames(folder: string, names: readonly string[]): StatColumns {
  const columns = createStatColumns(names.length);
  statEntries(folder, names, columns, 0, names.length);
  return columns;
}

function restat(request: RestatRequest): void {
  restated = undefined;
  if (held?.folder !== request.folder) return;
  const { names, first } = held;
  restated = { id: request.restatId, names, first, folderVirtual: request.folderVirtual, part: listPart(request.folder, request.folderVirtual, names, first) };
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
  if (!items) {
    const columns = statNames(request.folder, request.names);
    parentPort!.postMessage({ id: request.id, columns }, transferListOf(columns));
    return;
  }
  if (made) {
    parentPort!.postMessage({ id: request.id, columns: made.columns, restated: true }, transferListOf(made.columns));
    parentPort!.postMessage({ id: items.typesId, types: made.types, order: made.order });
  }
  // Each result goes as soon as it is known (copied, as this thread goes on with it): the main
  // thread scans the stats while the entries are typed, and orders them while their items are written.
  const { written } =
    made ??
    listPart(request.folder, items.folderVirtual, request.names, items.first, {
      stats: (columns) => parentPort!.postMessage({ id: request.id, columns }),
      typed: (types, order) => parentPort!.postMessage({ id: items.typesId, types, order }),
    });
  parentPort!.postMessage({ id: items.id, written }, [written.bytes.buffer, written.offsets.buffer] as ArrayBuffer[]);
});
