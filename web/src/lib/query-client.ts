import { QueryClient } from './query';
import { isApiError, isServerFault } from '../api/api-error';

/** Server data cache shared by the screens; cleared on logout. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors will not fix themselves by asking again; connection failures might.
      retry: (failureCount, error) => failureCount < 2 && isApiError(error) && (error.code === 'no_connection' || isServerFault(error.code)) && !error.isCancel,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});
