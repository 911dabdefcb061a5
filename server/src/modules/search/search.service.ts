import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SearchResult } from '@burrow/protocol';
import { isPostgresUrl, type Config } from '../../config.js';
import type { Cluster } from '../../storage/cluster.js';
import type { Db } from '../../storage/db.js';
import { notFound } from '../../errors.js';
import type { FileEvent } from '../../storage/file-events.js';
import type { Scope } from '../../storage/scoped-fs.js';
import type { Scopes } from '../../storage/scopes.js';
import type { UserRecord } from '../users/users.model.js';
import { createDirectoryWatcher, type DirectoryWatcher } from './dir-watcher.js';
import { sqliteIndexStore, type IndexStore } from './index-store.js';
import { pgIndexStore } from './pg-index-store.js';
import { createSearchIndexer, type IndexerLog, type SearchIndexer } from './search-indexer.js';
import { matchesName, parseSearchQuery, type SearchQuery } from './search-query.js';
import { openSearchRepository } from './search.repository.js';
import { EntryKind, walkTree } from './tree-walker.js';
import { compareKeys, isSameOrBelow, subtreeHigh } from './walk-order.js';

export type SearchOptions = {
  /** Full rescans for changes made outside Burrow, in ms (default 10 minutes; 0 turns them off). */
  rescanIntervalMs?: number;
  /** Watch the root for outside changes (default true). */
  watch?: boolean;
  /** Folders watched at most on Linux (default 16,384). */
  maxWatchedDirectories?: number;
  /** Entries written per transaction while indexing (default 2,000). */
  batchSize?: number;
  /** See IndexSearchOptions. */
  candidateLimit?: number;
  idChunk?: number;
  sliceSize?: number;
  hitSliceSize?: number;
};

export type SearchService = ReturnType<typeof createSearchService>;

/** The cluster-wide name of the full walk, claimed once per period by one instance. */
const RESCAN_JOB = 'search.rescan';
/** The claim held while a full walk runs, so that two never overlap. */
const WALK_LEASE = 'search.walk';
const WALK_LEASE_MS = 60_000;
/** Instances that start within this long of a walk leave the start-up walk to it. */
const START_WINDOW_MS = 60_000;
/** While the shared index is incomplete, instances look this often whether it is done or orphaned. */
const INCOMPLETE_RETRY_MS = 30_000;
/** Messages between instances about the shared index. */
const TOPIC = 'search.index';
/** The shared status (entries, completeness) is read again at most this often. */
const STATUS_REFRESH_MS = 2_000;

const DEFAULTS = {
  rescanIntervalMs: 10 * 60_000,
  maxWatchedDirectories: 16_384,
  batchSize: 2_000,
  candidateLimit: 50_000,
  idChunk: 4_000,
  sliceSize: 5_000,
  hitSliceSize: 50_000,
};

/** `dir` ending in exactly one separator (a root of `/` serves everything). */
const withSeparator = (dir: string) => (dir.endsWith(path.sep) ? dir : dir + path.sep);

/** Root-relative `/`-separated path of a real path, or undefined when it lies outside. */
function relativeTo(rootReal: string, real: string): string | undefined {
  if (real === rootReal) return '';
  const prefix = withSeparator(rootReal);
  if (!real.startsWith(prefix)) return undefined;
  return real.slice(prefix.length).split(path.sep).join('/');
}

/** The searched folder: its virtual path, and where it really is when a link led elsewhere in the scope. */
type SearchedFolder = { virtual: string; landed?: string };

async function realOrResolved(file: string): Promise<string> {
  try {
    return await fsp.realpath(file);
  } catch {
    try {
      return path.join(await fsp.realpath(path.dirname(file)), path.basename(file));
    } catch {
      return path.resolve(file);
    }
  }
}

/**
 * Search by name. Answers come from the name index (see search-indexer) once it covers the
 * searched folder, and from a live walk of the folder before that (first build still running,
 * no database file, or a folder outside the root through an allowed external link). Every answer
 * goes through the user's scope: rules, hidden dotfiles and links leaving the scope.
 */
export function createSearchService(
  deps: {
    config: Config;
    scopes: Scopes;
    log: IndexerLog & { error: (object: unknown, message: string) => void };
    /** The server database: on PostgreSQL the index lives there, shared by every instance. */
    db?: Db;
    /** Instances sharing the database: full walks run on one of them. */
    cluster?: Cluster;
  },
  options: SearchOptions = {},
) {
  const { config, scopes, log } = deps;
  const settings = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) } as typeof DEFAULTS & SearchOptions;

  let rootReal: string | undefined;
  let store: IndexStore | undefined;
  let indexer: SearchIndexer | undefined;
  let watcher: DirectoryWatcher | undefined;
  let complete = false;
  let buildCursor: string | undefined;
  let initial: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  let statusRead = 0;
  let statusReading: Promise<void> | undefined;
  /** Full walks this instance ran (start-up and rescans). */
  const stats = { indexedSearches: 0, liveSearches: 0, activeSearches: 0, abortedSearches: 0, fullWalks: 0 };
  const shared = () => store?.shared === true && deps.cluster !== undefined;

  /** Whether the index holds everything below `prefix` (root-relative). */
  function covers(prefix: string): boolean {
    if (complete) return true;
    if (buildCursor === undefined || prefix === '') return false;
    return compareKeys(buildCursor, subtreeHigh(prefix)!) >= 0;
  }

  async function fullScan(first: boolean): Promise<void> {
    if (!indexer || !store || indexer.rescanning) return;
    // On a shared index one walk at a time, cluster-wide: whoever holds the claim walks.
    let lease: Awaited<ReturnType<Cluster['lease']>>;
    if (shared()) {
      lease = await deps.cluster!.lease(WALK_LEASE, WALK_LEASE_MS);
      if (!lease) return;
    }
    try {
      stats.fullWalks++;
      const started = Date.now();
      let renewed = started;
      const result = await indexer.rescan(async (key) => {
        if (!complete) buildCursor = key;
        if (lease && Date.now() - renewed > WALK_LEASE_MS / 3) {
          renewed = Date.now();
          if (!(await lease.renew())) log.warn({}, 'search index: the claim on the walk lapsed; another instance may walk too');
        }
      });
      if (result.aborted || stopped) return;
      if (!complete) {
        complete = true;
        await store.setState('complete', '1');
        if (shared()) await deps.cluster!.publish(TOPIC, 'complete');
      }
      const seconds = (Date.now() - started) / 1000;
      // Counting reads the whole index into the page cache, which goes back right after.
      const entries = await store.count();
      store.releaseMemory();
      log.info(
        { entries, walked: result.walked, inserted: result.inserted, removed: result.removed, seconds, perSecond: Math.round(result.walked / Math.max(seconds, 0.001)) },
        first ? 'search index ready' : 'search index rescanned',
      );
    } finally {
      await lease?.release().catch(() => undefined);
    }
  }

  /**
   * A full walk as one of a cluster: skipped when another instance began one less than
   * `everyMs` ago. Alone (SQLite), it simply runs.
   */
  async function clusterScan(first: boolean, everyMs: number): Promise<boolean> {
    if (!shared()) {
      await fullScan(first);
      return true;
    }
    return deps.cluster!.once(RESCAN_JOB, everyMs, () => fullScan(first));
  }

  /** Reads what other instances may have changed: completeness and the number of entries. */
  async function readShared(): Promise<void> {
    if (!store) return;
    const current = store;
    if (!complete && (await current.getState('complete')) === '1') complete = true;
    await current.count();
  }

  function refreshStatus(): void {
    if (!shared() || statusReading || Date.now() - statusRead < STATUS_REFRESH_MS) return;
    statusRead = Date.now();
    statusReading = readShared()
      .catch((error: unknown) => log.debug({ err: error }, 'search index: could not read the shared status'))
      .finally(() => {
        statusReading = undefined;
      });
  }

  /**
   * Rules, hidden dotfiles and escaping links decide whether a matching entry is shown. Only
   * links need the disk (where do they lead?), so only they make this asynchronous: the gate
   * follows them, and a link leaving the scope or landing on a denied or hidden target is left
   * out, as listings leave it out. When the searched folder was reached through a link, entries
   * must also be allowed where they really are (`folder.landed`).
   */
  function present(scope: Scope, folder: SearchedFolder, relative: string, kind: number): SearchResult | undefined | Promise<SearchResult | undefined> {
    const virtual = folder.virtual === '/' ? `/${relative}` : `${folder.virtual}/${relative}`;
    if (!scope.isListable(virtual)) return undefined;
    if (folder.landed !== undefined && !scope.isListable(folder.landed === '/' ? `/${relative}` : `${folder.landed}/${relative}`)) return undefined;
    if (kind !== EntryKind.link) return { dir: kind === EntryKind.dir, path: relative };
    return scope.resolveClean(virtual, false, 'read').then(
      (target) => ({ dir: Boolean(target.stat?.isDirectory()), path: relative }),
      () => undefined,
    );
  }

  async function* fromIndex(scope: Scope, folder: SearchedFolder, prefix: string, query: SearchQuery, signal: AbortSignal): AsyncGenerator<SearchResult[]> {
    const cut = prefix === '' ? 0 : prefix.length + 1;
    for await (const rows of store!.search(prefix, query, signal, settings)) {
      const results: SearchResult[] = [];
      for (const row of rows) {
        if (!matchesName(row.name, query)) continue;
        const presented = present(scope, folder, row.path.slice(cut), row.kind);
        const result = presented instanceof Promise ? await presented : presented;
        if (result) results.push(result);
      }
      if (signal.aborted) return;
      if (results.length > 0) yield results;
    }
  }

  async function* fromWalk(scope: Scope, folderReal: string, folder: SearchedFolder, query: SearchQuery, signal: AbortSignal): AsyncGenerator<SearchResult[]> {
    for await (const entry of walkTree(folderReal, '', { signal })) {
      if (!matchesName(entry.name, query)) continue;
      const result = await present(scope, folder, entry.path, entry.kind);
      if (result) yield [result];
    }
  }

  function onFileEvent(event: FileEvent): Promise<void> {
    if (!indexer || !rootReal) return Promise.resolve();
    const relative = (real: string) => relativeTo(rootReal!, real);
    const paths = (reals: string[]) => reals.map(relative).filter((value): value is string => value !== undefined);
    switch (event.kind) {
      case 'created':
        return indexer.notify(paths([event.real]), event.isDir);
      case 'modified':
      case 'deleted':
        return indexer.notify(paths([event.real]), false);
      case 'moved':
        return indexer.notify(paths([event.fromReal, event.toReal]), event.isDir);
      case 'copied':
        return indexer.notify(paths([event.toReal]), event.isDir);
    }
  }

  return {
    stats,
    onFileEvent,

    /** Starts the index in the background; never waits for the build. */
    async start(): Promise<void> {
      rootReal = await scopes.serverRoot();
      if (config.database === ':memory:') {
        log.warn({}, 'search index: an in-memory database cannot be shared; searches walk the folders');
        return;
      }
      // With PostgreSQL, the index lives in the server database, shared by every instance.
      let indexFile: string | undefined = config.database;
      if (isPostgresUrl(config.database)) {
        if (!deps.db) throw new Error('the search index on PostgreSQL needs the server database');
        indexFile = undefined;
        store = pgIndexStore(deps.db);
      } else store = sqliteIndexStore(openSearchRepository(config.database));
      await store.adopt(rootReal);
      complete = (await store.getState('complete')) === '1';
      await store.count();
      if (shared()) {
        unsubscribe = deps.cluster!.on(TOPIC, () => {
          statusRead = 0;
          refreshStatus();
        });
      }

      // Burrow's own files never enter the index (the database would otherwise feed the watcher).
      const ownFiles = new Set<string>();
      if (indexFile !== undefined) {
        const database = await realOrResolved(indexFile);
        for (const suffix of ['', '-wal', '-shm', '-journal']) {
          const relative = relativeTo(rootReal, database + suffix);
          if (relative !== undefined) ownFiles.add(relative);
        }
      }
      const cache = relativeTo(rootReal, await realOrResolved(config.cacheDir));
      const skip = (relative: string) => ownFiles.has(relative) || (cache !== undefined && cache !== '' && isSameOrBelow(cache, relative));

      const root = rootReal;
      if (settings.watch !== false) {
        watcher = createDirectoryWatcher({
          rootReal: root,
          maxDirectories: settings.maxWatchedDirectories,
          skip,
          log,
          onChange: (paths, deep) => void indexer?.notify(paths, deep),
        });
      }
      indexer = createSearchIndexer({
        store,
        rootReal: root,
        skip,
        onDirectory: (relative) => watcher?.watch(relative),
        onForget: (relative, subtree) => watcher?.forget(relative, subtree),
        log,
        options: { batchSize: settings.batchSize },
      });
      // Instances that start together walk once between them; the others answer from the shared
      // index as soon as it is complete.
      const startWindow = settings.rescanIntervalMs > 0 ? Math.min(settings.rescanIntervalMs, START_WINDOW_MS) : START_WINDOW_MS;
      initial = clusterScan(true, startWindow).then(
        () => undefined,
        (error: unknown) => log.error({ err: error }, 'search index: the build failed; searches walk the folders'),
      );
      if (settings.rescanIntervalMs > 0) {
        timer = setInterval(() => {
          void clusterScan(false, settings.rescanIntervalMs).catch((error: unknown) => log.warn({ err: error }, 'search index: rescan failed'));
        }, settings.rescanIntervalMs);
        timer.unref();
      }
      if (shared()) {
        // Until the shared index is complete, look again now and then: the instance building it
        // may have stopped, and then one of the others takes over.
        retryTimer = setInterval(() => {
          if (complete || stopped) return;
          void readShared()
            .then(() => (complete || indexer?.rescanning ? undefined : fullScan(true)))
            .catch((error: unknown) => log.warn({ err: error }, 'search index: the build failed'));
        }, INCOMPLETE_RETRY_MS);
        retryTimer.unref();
      }
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      if (retryTimer) clearInterval(retryTimer);
      unsubscribe?.();
      watcher?.close();
      await indexer?.stop();
      await initial;
      await statusReading;
      await store?.close();
      store = undefined;
      indexer = undefined;
    },

    /** Hands the index's page cache back (a search or a walk fills it); the next search reads its pages again. */
    releaseMemory(): void {
      try {
        store?.releaseMemory();
      } catch {
        // The index closed meanwhile (shutdown).
      }
    },

    /** The index's size and how far it is behind, for monitoring; undefined while none runs. */
    status(): { entries: number; complete: boolean; backlog: number; lagSeconds: number } | undefined {
      if (!store || !indexer) return undefined;
      // On a shared index the figures are those last read (a moment old at most).
      refreshStatus();
      const backlog = indexer.backlog();
      return { entries: store.lastCount(), complete, backlog: backlog.size, lagSeconds: backlog.waitedMs / 1000 };
    },

    /** Resolves when the first full build (or the start-up reconcile) has finished. */
    ready(): Promise<void> {
      return initial;
    },

    /** Resolves when every reported change has reached the index. */
    async settled(): Promise<void> {
      await indexer?.settled();
    },

    /** Runs a full rescan now (the periodic one, on demand), after any that is running. */
    async rescan(): Promise<void> {
      await initial;
      if (indexer?.rescanning) await indexer.rescan();
      await fullScan(false);
    },

    /**
     * The periodic rescan as the timer runs it: on a shared index, skipped when another instance
     * began one within the period. Says whether it ran here.
     */
    async periodicRescan(): Promise<boolean> {
      await initial;
      return clusterScan(false, settings.rescanIntervalMs > 0 ? settings.rescanIntervalMs : START_WINDOW_MS);
    },

    /** Reads the shared index's status now (other instances may have completed it). */
    async refresh(): Promise<void> {
      if (shared()) await readShared();
    },

    /** The index (tests and tools). */
    get store(): IndexStore | undefined {
      return store;
    },

    /** Whether the index (rather than a live walk) would answer a search of this real folder. */
    isIndexed(real: string): boolean {
      const prefix = rootReal === undefined ? undefined : relativeTo(rootReal, real);
      return indexer !== undefined && prefix !== undefined && covers(prefix);
    },

    /**
     * Results for `query` below the folder at `decodedPath` in the user's scope, in walk order,
     * in batches. Refusals (403, 404) are thrown before anything is produced.
     */
    async search(user: UserRecord, decodedPath: string, rawQuery: string, signal: AbortSignal): Promise<AsyncIterable<SearchResult[]>> {
      const scope = await scopes.forUser(user);
      const folder = await scope.resolve(decodedPath, 'read');
      if (!folder.stat) throw notFound();
      const query = parseSearchQuery(rawQuery);
      const isDirectory = folder.stat.isDirectory();
      const prefix = rootReal === undefined ? undefined : relativeTo(rootReal, folder.real);
      const landed = scope.hasDenials ? scope.toVirtual(folder.real) : undefined;
      const searched: SearchedFolder = { virtual: folder.virtual, landed: landed !== folder.virtual ? landed : undefined };
      const indexed = indexer !== undefined && prefix !== undefined && covers(prefix);
      return (async function* () {
        // Searching a file walks nothing: the searched entry itself is never a result.
        if (!isDirectory) return;
        stats.activeSearches++;
        try {
          if (indexed) {
            stats.indexedSearches++;
            yield* fromIndex(scope, searched, prefix!, query, signal);
          } else {
            stats.liveSearches++;
            yield* fromWalk(scope, folder.real, searched, query, signal);
          }
        } finally {
          stats.activeSearches--;
          if (signal.aborted) stats.abortedSearches++;
        }
      })();
    },
  };
}
