import { useQuery } from '../../lib/query';
import { fetchUsage } from '../../api/usage';
import { isApiError, isRequestFault } from '../../api/api-error';

/**
 * Disk usage of the folder on screen. Quietly empty when the server has no usage endpoint or
 * refuses it: the sidebar then simply shows no bar.
 */
export function useUsage(folder: string | undefined) {
  return useQuery({
    queryKey: ['usage', folder],
    queryFn: ({ signal }) => fetchUsage(folder!, signal),
    enabled: folder !== undefined,
    staleTime: 30_000,
    retry: (count, error) => count < 1 && !(isApiError(error) && isRequestFault(error.code)),
  });
}
