import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { keepYoungGenerationSmallAfter } from '../../storage/young-generation.js';
import { createStatColumns, type StatColumns } from './entry-stats.js';
import type { StatRequest } from './entry-stats.worker.js';

/** Worker failures after which stats stay on the main thread for good. */
const MAX_FAILURES = 3;

/** Workers idle this long are stopped (each is a whole V8 instance, megabytes of memory); the next big listing starts them again. */
const IDLE_MS = 30_000;

type Pending = { resolve: (columns: StatColumns) => void; reject: (error: Error) => void };

/**
 * Starts a stat worker. Built code runs the compiled worker module; when the server runs from
 * its TypeScript sources (tests, development) the worker loads the source through tsx, which
 * those setups have.
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = new URL('./entry-stats.worker.ts', here).href;
    return new Worker(`import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(source)}); });`, { eval: true });
  }
  return new Worker(new URL('./entry-stats.worker.js', here));
}

/**
 * A few worker threads that `lstat` the entries of big folders, each taking a contiguous part of
 * the names. The main thread stays free for other requests, the work runs on several cores, and
 * the garbage of 100,000 stat objects never reaches the main heap (where collecting it took
 * longer than the stats themselves). Workers start on first use, do not keep the process alive,
 * are stopped after IDLE_MS without work, and are replaced if one fails; after repeated failures `stat` answers undefined and callers
 * stat on their own thread.
 */
export class EntryStatPool {
  #workers: Worker[] | undefined;
  #failures = 0;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly size: number,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Whether worker threads are running now. */
  get running(): boolean {
    return this.#workers !== undefined;
  }

  get available(): boolean {
    return this.#failures < MAX_FAILURES;
  }

  /** Stats every name in `folder`; undefined when no worker can do it. */
  async stat(folder: string, names: readonly string[]): Promise<StatColumns | undefined> {
    const workers = this.#start();
    if (!workers) return undefined;
    const partSize = Math.ceil(names.length / workers.length);
    const parts: Promise<StatColumns>[] = [];
    for (let part = 0; part * partSize < names.length; part++) {
      parts.push(this.#request(workers[part]!, folder, names.slice(part * partSize, (part + 1) * partSize)));
    }
    let results: StatColumns[];
    try {
      results = await Promise.all(parts);
    } catch {
      return undefined;
    }
    if (results.length === 1) return results[0];
    const columns = createStatColumns(names.length);
    let offset = 0;
    for (const result of results) {
      columns.flags.set(result.flags, offset);
      columns.modes.set(result.modes, offset);
      columns.sizes.set(result.sizes, offset);
      columns.mtimeSeconds.set(result.mtimeSeconds, offset);
      columns.mtimeNanos.set(result.mtimeNanos, offset);
      offset += result.flags.length;
    }
    return columns;
  }

  #start(): Worker[] | undefined {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#workers) return this.#workers;
    if (!this.available) return undefined;
    const workers: Worker[] = [];
    try {
      for (let index = 0; index < this.size; index++) workers.push(this.#watch(keepYoungGenerationSmallAfter(spawnWorker())));
    } catch {
      for (const worker of workers) void worker.terminate();
      this.#failures++;
      return undefined;
    }
    this.#workers = workers;
    return workers;
  }

  #watch(worker: Worker): Worker {
    worker.unref();
    worker.on('message', (message: { id: number; columns: StatColumns }) => {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      pending?.resolve(message.columns);
      if (this.#pending.size === 0) this.#retireWhenIdle();
    });
    const fail = (error: Error) => this.#fail(worker, error);
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`stat worker exited with code ${code}`)));
    return worker;
  }

  /** Stops the workers once no request has come for `idleMs`. */
  #retireWhenIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      const workers = this.#workers;
      if (!workers || this.#pending.size > 0) return;
      this.#workers = undefined;
      for (const worker of workers) {
        worker.removeAllListeners('exit');
        worker.removeAllListeners('error');
        void worker.terminate();
      }
    }, this.idleMs);
    this.#idleTimer.unref();
  }

  /** Drops every worker after one failed: requests in flight fail and are redone in-thread. */
  #fail(worker: Worker, error: Error): void {
    if (!this.#workers?.includes(worker)) return;
    this.#failures++;
    const workers = this.#workers;
    this.#workers = undefined;
    for (const other of workers) {
      other.removeAllListeners('exit');
      void other.terminate();
    }
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #request(worker: Worker, folder: string, names: string[]): Promise<StatColumns> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, { resolve, reject });
      const request: StatRequest = { id, folder, names };
      worker.postMessage(request);
    });
  }
}

/** The pool listings share: one worker per core, at most two (the stats are I/O-light). */
export const entryStatPool = new EntryStatPool(Math.min(2, Math.max(1, os.availableParallelism())));
