/** The app's server data cache: queries by key, shared requests, stale data refetched, and the hooks that show them. */
export { CancelledError, QueryClient, type InfiniteData, type QueryKey, type QueryState } from './client';
export { QueryClientProvider, useInfiniteQuery, useQuery, useQueryClient, type UseInfiniteQueryResult, type UseQueryResult } from './hooks';
