import { parentPort } from 'node:worker_threads';
import { createStatColumns, statEntries, transferListOf } from './entry-stats.js';

/** A request from the pool: stat each name in `folder`. */
export type StatRequest = { id: number; folder: string; names: string[] };

// Runs in a worker thread: the stat objects of a big folder are made and collected here, in a
// heap that holds almost nothing else, and only packed numbers go back.
parentPort?.on('message', (request: StatRequest) => {
  const columns = createStatColumns(request.names.length);
  statEntries(request.folder, request.names, columns, 0, request.names.length);
  parentPort!.postMessage({ id: request.id, columns }, transferListOf(columns));
});
