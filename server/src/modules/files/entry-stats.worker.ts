import { parentPort } from 'node:worker_threads';
import { createStatColumns, IS_DIR, IS_PRESENT, IS_SYMLINK, statEntries, transferListOf } from './entry-stats.js';
import { typeEntries, writeItems } from './listing-items.js';
import { nameOrderOf } from './sorting.js';

/**
 * A request from the pool: stat each name in `folder`. With `items`, the worker then types the
 * entries and finds their name order (see `typeEntries`, `nameOrderOf`), sent under
 * `items.typesId`, and writes their listing items (see `writeItems`), sent under `items.id`.
 */
export type StatRequest = { id: number; folder: string; names: string[]; items?: { id: number; typesId: number; folderVirtual: string; first: number } };

// Runs in a worker thread: the stat objects and item text of a big folder are made and collected
// here, in a heap that holds almost nothing else, and only packed numbers and bytes go back.
parentPort?.on('message', (request: StatRequest) => {
  const columns = createStatColumns(request.names.length);
  statEntries(request.folder, request.names, columns, 0, request.names.length);
  if (!request.items) {
    parentPort!.postMessage({ id: request.id, columns }, transferListOf(columns));
    return;
  }
  // Each result goes as soon as it is known (copied, as this thread goes on with it): the main
  // thread scans the stats while the entries are typed, and orders them while their items are written.
  parentPort!.postMessage({ id: request.id, columns });
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
