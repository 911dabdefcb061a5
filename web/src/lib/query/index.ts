/** The app's server data cache: queries by key, shared requests, stale data refetched, and the hooks that show them. */
export { CancelledError, QueryClient } from './client';
export { QueryClientProvider, useInfiniteQuery, useQuery, useQueryClient } from './hooks';
