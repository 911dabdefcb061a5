import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { keepYoungGenerationSmallAfter } from '../../storage/young-generation.js';
import { createStatColumns, type StatColumns } from './entry-stats.js';
import type { RestatRequest, StatRequest } from './entry-stats.worker.js';
import type { EntryTypes, WrittenItems } from './listing-items.js';
import { joinNameOrders, type NameOrder } from './sorting.js';

/** Worker failures after which stats stay on the main thread for good. */
const MAX_FAILURES = 3;

/** Workers idle this long are stopped (each is a whole V8 instance, megabytes of memory); the next big listing starts them again. */
const IDLE_MS = 30_000;

/** A worker's answer: stats (and whether a restat made them), or written items. */
type Answer = { id: number; columns?: StatColumns; restated?: boolean; types?: EntryTypes; order?: NameOrder; written?: WrittenItems };

/** How the workers typed a folder's names, and their name order when known (see `statAndWrite`). */
export type TypedNames = { types: EntryTypes; order?: NameOrder };
type Pending = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

/**
 * Starts a stat worker. Built code runs the compiled worker module; when the server runs from
 * its TypeScript sources (tests, development) the worker loads the source through tsx, which
 * those setups have, and the protocol package from its sources.
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = new URL('./entry-stats.worker.ts', here).href;
    // The protocol package is taken from its sources too, as the test runner takes it: its build
    // may not exist yet.
    const protocol = new URL('../../../../protocol/src/index.ts', here).href;
    const resolver = `export async function resolve(specifier, context, next) { return next(specifier === '@burrow/protocol' ? ${JSON.stringify(protocol)} : specifier, context); }`;
    const hooks = 'data:text/javascript,' + encodeURIComponent(resolver);
    return new Worker(
      `import('node:module').then((module) => { module.register(${JSON.stringify(hooks)}); return import('tsx/esm/api'); }).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`,
      { eval: true },
    );
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
  /** The folder whose names the workers hold (see `statAndWrite`'s `version`), and its version then. */
  #held: { folder: string; version: string } | undefined;
  /** The key of the restat sent and not yet taken or dropped by its listing: one at a time. */
  #restatOut: number | undefined;
  #restatsTaken = 0;

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

  /** How many workers' parts of listings so far came from a restat (see `restat`). */
  get restatsTaken(): number {
    return this.#restatsTaken;
  }

  /**
   * Has the workers stat, type and write again, now, the names they hold of `folder` from its last
   * listing, as items of the folder at `folderVirtual`, while the caller reads the folder anew: the
   * work runs on the cores the reading leaves idle, and a listing of a folder that has not changed
   * meanwhile finds it done. Only when `version` (the folder's own identity and change times) is
   * the one of that listing; what was made is taken only if the names read are the same, in the
   * same order (see `statAndWrite`'s `restat`), and is never older than this call. Answers the key
   * to hand to `statAndWrite`, or to `dropRestat` when the listing goes without; undefined when
   * there is nothing to do again, or another listing's restat is still out (listings of one folder
   * side by side would otherwise redo each other's work).
   */
  restat(folder: string, folderVirtual: string, version: string): number | undefined {
    const workers = this.#workers;
    if (!workers || this.#restatOut !== undefined || this.#held?.folder !== folder || this.#held.version !== version) return undefined;
    const request: RestatRequest = { restatId: this.#nextId++, folder, folderVirtual };
    for (const worker of workers) worker.postMessage(request);
    this.#restatOut = request.restatId;
    return request.restatId;
  }

  /** Lets another listing have a restat: the one under `key` will not be taken. */
  dropRestat(key: number | undefined): void {
    if (key !== undefined && key === this.#restatOut) this.#restatOut = undefined;
  }

  /** Stats every name in `folder`; undefined when no worker can do it. */
  async stat(folder: string, names: readonly string[]): Promise<StatColumns | undefined> {
    const sent = this.#send(folder, names);
    if (!sent) return undefined;
    try {
      return joinColumns((await Promise.all(sent.stats)).map((answer) => answer.columns!), names.length);
    } catch {
      return undefined;
    }
  }

  /**
   * Stats every name in `folder` and has the workers type the entries, find their name order and
   * write their listing items too (see `typeEntries`, `nameOrderOf`, `writeItems`): each comes as
   * soon as it is known, the items in parts, by their first name. Undefined when no worker can do
   * it; the types and items are undefined when a worker failed meanwhile. With `version` (see
   * `restat`), the workers keep the names for the folder's next listing; `restat` is the key
   * `restat` gave for this listing.
   */
  async statAndWrite(
    folder: string,
    folderVirtual: string,
    names: readonly string[],
    options: { version?: string; restat?: number } = {},
  ): Promise<{ columns: StatColumns; typed: Promise<TypedNames | undefined>; items: Promise<WrittenItems[] | undefined> } | undefined> {
    this.dropRestat(options.restat);
    const sent = this.#send(folder, names, { folderVirtual, keep: options.version !== undefined, restat: options.restat });
    if (!sent) return undefined;
    this.#held = options.version === undefined ? undefined : { folder, version: options.version };
    // Should the stats fail, the rest fails with them: nobody waits for it then.
    const typed = Promise.all(sent.typed).then((answers) => joinTypes(answers, names.length), () => undefined);
    const items = Promise.all(sent.written).then((answers) => answers.map((answer) => answer.written!), () => undefined);
    try {
      return { columns: joinColumns((await Promise.all(sent.stats)).map((answer) => answer.columns!), names.length), typed, items };
    } catch {
      return undefined;
    }
  }

  /**
   * Sends each worker its part of the names: the answers to come, stats and (with `listing.folderVirtual`, the
   * folder's virtual path) types and items. Undefined when no worker can run.
   */
  #send(
    folder: string,
    names: readonly string[],
    listing?: { folderVirtual: string; keep: boolean; restat?: number },
  ): { stats: Promise<Answer>[]; typed: Promise<Answer>[]; written: Promise<Answer>[] } | undefined {
    const workers = this.#start();
    if (!workers) return undefined;
    // Whatever the workers held is replaced by what this request has them keep.
    this.#held = undefined;
    const partSize = Math.ceil(names.length / workers.length);
    const sent = { stats: [] as Promise<Answer>[], typed: [] as Promise<Answer>[], written: [] as Promise<Answer>[] };
    for (let part = 0; part * partSize < names.length; part++) {
      const first = part * partSize;
      const request: StatRequest = { id: this.#nextId++, folder, names: names.slice(first, first + partSize) };
      sent.stats.push(this.#expect(request.id).then(this.#countRestat));
      if (listing) {
        request.keep = listing.keep;
        request.restat = listing.restat;
        request.items = { id: this.#nextId++, typesId: this.#nextId++, folderVirtual: listing.folderVirtual, first };
        sent.typed.push(this.#expect(request.items.typesId));
        sent.written.push(this.#expect(request.items.id));
      }
      workers[part]!.postMessage(request);
    }
    return sent;
  }

  readonly #countRestat = (answer: Answer): Answer => {
    if (answer.restated) this.#restatsTaken++;
    return answer;
  };

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
    worker.on('message', (message: Answer) => {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      pending?.resolve(message);
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
      this.#held = undefined;
      this.#restatOut = undefined;
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
    this.#held = undefined;
    this.#restatOut = undefined;
    for (const other of workers) {
      other.removeAllListeners('exit');
      void other.terminate();
    }
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /** The answer to come under `id`. */
  #expect(id: number): Promise<Answer> {
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }
}

/** The stats of consecutive parts of `count` names, as one set of columns. */
function joinColumns(parts: StatColumns[], count: number): StatColumns {
  if (parts.length === 1) return parts[0]!;
  const columns = createStatColumns(count);
  let offset = 0;
  for (const part of parts) {
    columns.flags.set(part.flags, offset);
    columns.modes.set(part.modes, offset);
    columns.sizes.set(part.sizes, offset);
    columns.mtimeSeconds.set(part.mtimeSeconds, offset);
    columns.mtimeNanos.set(part.mtimeNanos, offset);
    offset += part.flags.length;
  }
  return columns;
}

/** The types and name orders of consecutive parts of `count` names, joined. */
function joinTypes(parts: Answer[], count: number): TypedNames {
  let types = parts[0]!.types!;
  if (parts.length > 1) {
    types = { typeCodes: new Uint8Array(count), sniff: new Uint8Array(count) };
    let offset = 0;
    for (const part of parts) {
      types.typeCodes.set(part.types!.typeCodes, offset);
      types.sniff.set(part.types!.sniff, offset);
      offset += part.types!.typeCodes.length;
    }
  }
  const orders = parts.map((part) => part.order);
  return { types, order: orders.every((order) => order !== undefined) ? joinNameOrders(orders as NameOrder[]) : undefined };
}

/** The pool listings share: one worker per core, at most two (the stats are I/O-light). */
export const entryStatPool = new EntryStatPool(Math.min(2, Math.max(1, os.availableParallelism())));
