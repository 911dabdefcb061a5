import { createContext, useCallback, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { hashKey, type InfiniteData, type PagesOptions, type QueryClient, type Query, type QueryOptions, type QueryState } from './client';

const ClientContext = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useQueryClient(): QueryClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('Query hooks need a <QueryClientProvider>.');
  return client;
}

interface Common {
  fetchStatus: 'fetching' | 'idle';
  isFetching: boolean;
  dataUpdatedAt: number;
  /** Asks again; a request already running for data on screen is replaced. */
  refetch: () => Promise<unknown>;
}

/** The query as a component sees it; `status` (or the `is…` flags) tells what `data` and `error` hold. */
type UseQueryResult<TData> = Common &
  (
    | { status: 'pending'; isPending: true; isError: false; isSuccess: false; data: undefined; error: null }
    | { status: 'error'; isPending: false; isError: true; isSuccess: false; data: TData | undefined; error: Error }
    | { status: 'success'; isPending: false; isError: false; isSuccess: true; data: TData; error: null }
  );

type UseInfiniteQueryResult<TPage, TPageParam> = UseQueryResult<InfiniteData<TPage, TPageParam>> & {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/**
 * Subscribes the component to the query of `options.queryKey`: it renders again when that query
 * changes, and only then. Fetches on mount and on a new key when the data is stale (and the
 * query enabled); leaving as the last observer abandons a running request.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function useObservedQuery(options: QueryOptions<any, any> & Partial<PagesOptions<any, any>>) {
  const client = useQueryClient();
  const hash = hashKey(options.queryKey);
  const enabled = options.enabled !== false;
  const enabledRef = useRef(enabled);
  useEffect(() => {
    enabledRef.current = enabled;
  }, [enabled]);
  const subscribe = useCallback((notify: () => void) => client.observe(hash, { notify, isEnabled: () => enabledRef.current }), [client, hash]);
  // Building in render gives the query its latest options (queryFn, retry, …) before any fetch.
  const state: QueryState = useSyncExternalStore(subscribe, () => client.build(options).state);
  const query = client.build(options);

  // The query and `enabled` of the last mount or change: a new key, or one just enabled, fetches if stale.
  const started = useRef<{ query: Query; enabled: boolean }>(undefined);
  useEffect(() => {
    started.current = { query, enabled };
    if (enabled && client.isStale(query)) client.fetch(query).catch(() => undefined);
  }, [client, query, enabled]);

  // Until that fetch starts, the result already says it is coming.
  const willFetch = enabled && (started.current?.query !== query || !started.current.enabled) && state.fetchStatus === 'idle' && client.isStale(query);
  const shown: QueryState = willFetch ? { ...state, fetchStatus: 'fetching', ...(state.data === undefined && { status: 'pending', error: null }) } : state;
  const refetch = () => client.fetch(query, { replace: true }).catch(() => undefined);
  const base = {
    ...shown,
    isPending: shown.status === 'pending',
    isError: shown.status === 'error',
    isSuccess: shown.status === 'success',
    isFetching: shown.fetchStatus === 'fetching',
    refetch,
  };
  return { base, state, client, query };
}

export function useQuery<TData>(options: QueryOptions<TData>): UseQueryResult<TData> {
  return useObservedQuery(options).base as UseQueryResult<TData>;
}

/** A query whose data is a list of pages, the next one fetched on demand. */
export function useInfiniteQuery<TPage, TPageParam>(options: QueryOptions<TPage, TPageParam> & PagesOptions<TPage, TPageParam>): UseInfiniteQueryResult<TPage, TPageParam> {
  const { base, state, client, query } = useObservedQuery(options);
  const data = state.data as InfiniteData<TPage, TPageParam> | undefined;
  const hasNextPage = !!data && data.pages.length > 0 && options.getNextPageParam(data.pages.at(-1)!, data.pages, data.pageParams.at(-1)!, data.pageParams) != null;
  return {
    ...(base as UseQueryResult<InfiniteData<TPage, TPageParam>>),
    hasNextPage,
    isFetchingNextPage: state.fetchDirection === 'forward',
    fetchNextPage: () => client.fetch(query, { replace: true, direction: 'forward' }).catch(() => undefined),
  };
}
