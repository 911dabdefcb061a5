/**
 * The server data cache: answers kept by query key, one request at a time per key shared by
 * whoever asks, kept fresh for a while, refetched when marked stale, forgotten some time after
 * the last screen showing them went away.
 */

export type QueryKey = readonly unknown[];

type QueryStatus = 'pending' | 'error' | 'success';

export interface QueryState<TData = unknown> {
  data: TData | undefined;
  error: Error | null;
  status: QueryStatus;
  /** 'fetching' while a request runs, retries and their waits included. */
  fetchStatus: 'fetching' | 'idle';
  /** When the data last changed (ms since the epoch), 0 before it first arrived. */
  dataUpdatedAt: number;
  /** Marked stale by `invalidateQueries` since the data arrived. */
  isInvalidated: boolean;
  /** 'forward' while the next page of an infinite query is loading. */
  fetchDirection?: 'forward';
}

interface QueryFunctionContext<TPageParam = unknown> {
  queryKey: QueryKey;
  signal: AbortSignal;
  pageParam: TPageParam;
}

type RetryOption = boolean | number | ((failureCount: number, error: Error) => boolean);

export interface QueryOptions<TData = unknown, TPageParam = unknown> {
  queryKey: QueryKey;
  queryFn?: (context: QueryFunctionContext<TPageParam>) => TData | Promise<TData>;
  /** How long an answer counts as fresh, in ms (0: stale at once). */
  staleTime?: number;
  /** How long an unobserved query is kept, in ms. */
  gcTime?: number;
  retry?: RetryOption;
  enabled?: boolean;
  /** Accepted for the defaults: the cache never refetches on focus. */
  refetchOnWindowFocus?: false;
}

/** Pages of an infinite query: how to ask for the first one and for the one after the last. */
export interface PagesOptions<TPage, TPageParam> {
  initialPageParam: TPageParam;
  getNextPageParam: (lastPage: TPage, pages: TPage[], lastPageParam: TPageParam, pageParams: TPageParam[]) => TPageParam | null | undefined;
}

export interface InfiniteData<TPage, TPageParam> {
  pages: TPage[];
  pageParams: TPageParam[];
}

export interface QueryFilters {
  queryKey?: QueryKey;
  /** Only the query with exactly this key, not those it is a prefix of. */
  exact?: boolean;
}

export interface QueryClientConfig {
  defaultOptions?: { queries?: Omit<QueryOptions, 'queryKey' | 'queryFn'> };
}

/** What rejects the promise of a request given up on (its last observer left, its query removed). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyOptions = QueryOptions<any, any> & Partial<PagesOptions<any, any>>;

/** One request of a query: its abort switch, the state to go back to if it is abandoned, its outcome. */
interface Run {
  controller: AbortController;
  revert: QueryState;
  promise: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Observer {
  notify: () => void;
  isEnabled: () => boolean;
}

interface Query {
  key: QueryKey;
  hash: string;
  state: QueryState;
  options: AnyOptions;
  run?: Run;
  gcTimer?: ReturnType<typeof setTimeout>;
}

const DefaultGcTime = 5 * 60_000;

const noop = () => undefined;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** The key as a string equal for equal keys: object properties in name order. */
export function hashKey(key: QueryKey): string {
  return JSON.stringify(key, (_name, value: unknown) =>
    isPlainObject(value) ? Object.fromEntries(Object.keys(value).sort().map((name) => [name, value[name]])) : value,
  );
}

/** Whether `key` starts with `prefix`, compared part by part as the hash sees them. */
function startsWith(key: QueryKey, prefix: QueryKey): boolean {
  return prefix.length <= key.length && prefix.every((part, i) => hashKey([part]) === hashKey([key[i]]));
}

/**
 * `next`, except that where it deep-equals `previous` (plain objects and arrays, compared
 * value by value) the previous object is kept, at every depth: components that depend on a part
 * of an answer see it change only when it did.
 */
export function replaceEqualDeep<T>(previous: unknown, next: T): T {
  if (previous === next) return next;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const names = Object.keys(after);
  const copy = (arrays ? [] : {}) as Record<string, unknown>;
  let same = names.length === Object.keys(before).length;
  for (const name of names) {
    const value = replaceEqualDeep(before[name], after[name]);
    copy[name] = value;
    if (value !== before[name] || (value === undefined && !(name in before))) same = false;
  }
  return (same ? previous : copy) as T;
}

const emptyState = (): QueryState => ({
  data: undefined,
  error: null,
  status: 'pending',
  fetchStatus: 'idle',
  dataUpdatedAt: 0,
  isInvalidated: false,
});

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class QueryClient {
  private readonly queries = new Map<string, Query>();
  /** Observers by key hash: they outlive a removed query and see the one built in its place. */
  private readonly observers = new Map<string, Set<Observer>>();
  private readonly defaults: Omit<QueryOptions, 'queryKey' | 'queryFn'>;

  constructor(config: QueryClientConfig = {}) {
    this.defaults = config.defaultOptions?.queries ?? {};
    // Back online, the stale queries on screen ask again (those that failed meanwhile among them).
    globalThis.addEventListener?.('online', () => {
      for (const query of this.queries.values()) if (this.isActive(query) && this.isStale(query)) this.fetch(query).catch(noop);
    });
  }

  /** The query of `options.queryKey`, created pending if new; its options become these. */
  build(options: AnyOptions): Query {
    const hash = hashKey(options.queryKey);
    let query = this.queries.get(hash);
    if (!query) {
      query = { key: options.queryKey, hash, state: emptyState(), options: {} as AnyOptions };
      this.queries.set(hash, query);
      this.scheduleGc(query);
    }
    const merged = { ...this.defaults, ...options } as AnyOptions;
    // The longest time asked for wins: a query is not dropped sooner than any user of it expects.
    merged.gcTime = Math.max(query.options.gcTime ?? 0, merged.gcTime ?? DefaultGcTime);
    query.options = merged;
    return query;
  }

  /** Registers a component showing the query of `hash`; the returned function unregisters it. */
  observe(hash: string, observer: Observer): () => void {
    let set = this.observers.get(hash);
    if (!set) this.observers.set(hash, (set = new Set()));
    set.add(observer);
    const query = this.queries.get(hash);
    if (query) clearTimeout(query.gcTimer);
    return () => {
      set.delete(observer);
      if (set.size > 0) return;
      this.observers.delete(hash);
      const current = this.queries.get(hash);
      if (!current) return;
      // Nobody waits for the answer any more: the request stops and the query is as before it.
      if (current.run) this.cancel(current, true);
      this.scheduleGc(current);
    };
  }

  isStale(query: Query, staleTime = query.options.staleTime ?? 0): boolean {
    const { data, isInvalidated, dataUpdatedAt } = query.state;
    return data === undefined || isInvalidated || Date.now() >= dataUpdatedAt + staleTime;
  }

  /**
   * Runs the query's function, or joins the request already running. With `replace`, a running
   * request of a query that has data is abandoned for a new one (its callers get the new answer).
   */
  fetch(query: Query, { replace = false, direction }: { replace?: boolean; direction?: 'forward' } = {}): Promise<unknown> {
    const running = query.run;
    if (running && !(replace && query.state.data !== undefined)) return running.promise;
    const run = { controller: new AbortController(), revert: running?.revert ?? query.state } as Run;
    run.promise = new Promise((resolve, reject) => Object.assign(run, { resolve, reject }));
    // Awaited or not: a failure reaches whoever awaits it, without an unhandled rejection otherwise.
    run.promise.catch(noop);
    if (running) {
      query.run = undefined;
      running.controller.abort();
      running.resolve(run.promise);
    }
    query.run = run;
    const data = query.state.data;
    // Without data to show, a new request also clears the last error.
    this.setState(query, { fetchStatus: 'fetching', fetchDirection: direction, ...(data === undefined && { status: 'pending', error: null }) });
    void this.execute(query, run, direction);
    return run.promise;
  }

  private async execute(query: Query, run: Run, direction: 'forward' | undefined): Promise<void> {
    const { options } = query;
    const { signal } = run.controller;
    const call = (pageParam: unknown) => options.queryFn!({ queryKey: query.key, signal, pageParam });
    const load = options.getNextPageParam ? () => this.loadPages(query, options, call, direction) : () => call(undefined);
    for (let failures = 0; ; failures++) {
      try {
        const value = await load();
        if (query.run !== run) return;
        query.run = undefined;
        const data = replaceEqualDeep(query.state.data, value);
        this.setState(query, { data, error: null, status: 'success', fetchStatus: 'idle', fetchDirection: undefined, dataUpdatedAt: Date.now(), isInvalidated: false });
        run.resolve(data);
      } catch (caught) {
        if (query.run !== run) return;
        const error = caught as Error;
        const retry = options.retry ?? 3;
        const again = typeof retry === 'function' ? retry(failures, error) : retry === true || failures < Number(retry);
        if (again) {
          await sleep(Math.min(1000 * 2 ** failures, 30_000), signal);
          if (query.run === run) continue;
          return;
        }
        query.run = undefined;
        this.setState(query, { error, status: 'error', fetchStatus: 'idle', fetchDirection: undefined });
        run.reject(error);
      }
      this.scheduleGc(query);
      return;
    }
  }

  /** The next page after the cached ones, or (refetching) as many pages as are cached, anew from the first. */
  private async loadPages(query: Query, options: AnyOptions, call: (pageParam: unknown) => unknown, direction: 'forward' | undefined) {
    const old = query.state.data as InfiniteData<unknown, unknown> | undefined;
    const next = (pages: unknown[], params: unknown[]) => options.getNextPageParam!(pages.at(-1), pages, params.at(-1), params);
    if (direction === 'forward' && old) {
      const param = next(old.pages, old.pageParams);
      if (param == null) return old;
      return { pages: [...old.pages, await call(param)], pageParams: [...old.pageParams, param] };
    }
    const pages: unknown[] = [];
    const pageParams: unknown[] = [];
    const count = Math.max(old?.pages.length ?? 0, 1);
    for (let i = 0; i < count; i++) {
      const param = i === 0 ? (old?.pageParams[0] ?? options.initialPageParam) : next(pages, pageParams);
      if (param == null && i > 0) break;
      pages.push(await call(param));
      pageParams.push(param);
    }
    return { pages, pageParams };
  }

  /** Stops the running request: its callers get a `CancelledError`; with `revert`, the state goes back. */
  private cancel(query: Query, revert: boolean) {
    const run = query.run!;
    query.run = undefined;
    run.controller.abort();
    run.reject(new CancelledError());
    if (revert) this.setState(query, { ...run.revert, fetchStatus: 'idle', fetchDirection: undefined });
  }

  private setState(query: Query, patch: Partial<QueryState>) {
    query.state = { ...query.state, ...patch };
    if (this.queries.get(query.hash) !== query) return;
    for (const observer of this.observers.get(query.hash) ?? []) observer.notify();
  }

  private scheduleGc(query: Query) {
    clearTimeout(query.gcTimer);
    if (this.observers.has(query.hash)) return;
    query.gcTimer = setTimeout(() => {
      if (!this.observers.has(query.hash) && !query.run && this.queries.get(query.hash) === query) this.queries.delete(query.hash);
    }, query.options.gcTime ?? DefaultGcTime);
  }

  private find(filters: QueryFilters = {}): Query[] {
    const { queryKey, exact } = filters;
    return [...this.queries.values()].filter((query) => !queryKey || (exact ? query.hash === hashKey(queryKey) : startsWith(query.key, queryKey)));
  }

  private isActive(query: Query) {
    return [...(this.observers.get(query.hash) ?? [])].some((observer) => observer.isEnabled());
  }

  getQueryData<TData = unknown>(queryKey: QueryKey): TData | undefined {
    return this.queries.get(hashKey(queryKey))?.state.data as TData | undefined;
  }

  getQueryState<TData = unknown>(queryKey: QueryKey): QueryState<TData> | undefined {
    return this.queries.get(hashKey(queryKey))?.state as QueryState<TData> | undefined;
  }

  /**
   * Stores data for a key as if it had been fetched. An updater gets the cached data (undefined
   * if none); returning undefined changes nothing. A request running for the key goes on: the
   * query shows this data meanwhile, and the request's answer replaces it when it arrives.
   */
  setQueryData<TData>(queryKey: QueryKey, updater: TData | undefined | ((current: TData | undefined) => TData | undefined)): TData | undefined {
    const current = this.getQueryData<TData>(queryKey);
    const value = typeof updater === 'function' ? (updater as (current: TData | undefined) => TData | undefined)(current) : updater;
    if (value === undefined) return undefined;
    const query = this.queries.get(hashKey(queryKey)) ?? this.build({ queryKey });
    const data = replaceEqualDeep(current, value);
    this.setState(query, { data, error: null, status: 'success', dataUpdatedAt: Date.now(), isInvalidated: false });
    // Abandoned now, the request would leave this data rather than none.
    if (query.run) query.run.revert = { ...query.state, fetchStatus: 'idle' };
    return data;
  }

  setQueriesData<TData>(filters: QueryFilters, updater: (current: TData | undefined) => TData | undefined): void {
    for (const query of this.find(filters)) this.setQueryData<TData>(query.key, updater);
  }

  /** Marks the matching queries stale; those on screen fetch again. Resolves when they have answered. */
  async invalidateQueries(filters?: QueryFilters): Promise<void> {
    const queries = this.find(filters);
    for (const query of queries) this.setState(query, { isInvalidated: true });
    await Promise.all(queries.filter((query) => this.isActive(query)).map((query) => this.fetch(query, { replace: true }).catch(noop)));
  }

  /** Forgets the matching queries; a running request of theirs is abandoned. */
  removeQueries(filters?: QueryFilters): void {
    for (const query of this.find(filters)) {
      this.queries.delete(query.hash);
      clearTimeout(query.gcTimer);
      if (query.run) this.cancel(query, false);
    }
  }

  clear(): void {
    this.removeQueries();
  }

  /** The cached data while fresh (by `staleTime`, default 0), else the answer of a request. */
  fetchQuery<TData>(options: QueryOptions<TData>): Promise<TData> {
    const query = this.build(options);
    return (this.isStale(query) ? this.fetch(query) : Promise.resolve(query.state.data)) as Promise<TData>;
  }

  /** Like `fetchQuery`, without the answer or its failure. */
  prefetchQuery<TData>(options: QueryOptions<TData>): Promise<void> {
    return this.fetchQuery(options).then(noop, noop);
  }

  /** The cached data, however old, else the answer of a request. */
  ensureQueryData<TData>(options: QueryOptions<TData>): Promise<TData> {
    const data = this.getQueryData<TData>(options.queryKey);
    return data === undefined ? this.fetchQuery(options) : Promise.resolve(data);
  }
}

export type { Query };
