import { useQuery, useQueryClient } from '../../lib/query';
import type { Resource } from '@burrow/protocol';
import { fetchResource } from '../../api/resources';
import { resourceQueryKey } from './files-path';

/**
 * Items asked for first when a folder is opened afresh: more than the tallest screen shows in any
 * view. A folder with more shows these at once while the rest is on its way.
 */
const FirstItems = 500;

/**
 * The folder listing or file at a decoded virtual path; the request is aborted when left.
 *
 * A folder not in the cache is asked for with its first items only. When it holds more, those are
 * shown at once (`partial` set, with the counts of all items) while the whole listing loads: a
 * folder of 100,000 entries shows its first rows long before its full listing has arrived and
 * been read. Small folders take one request, as before; refreshes ask for the whole listing.
 */
export function useResource(path: string) {
  const queryClient = useQueryClient();
  const queryKey = resourceQueryKey(path);
  return useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      if (queryClient.getQueryData<Resource>(queryKey) === undefined) {
        const head = await fetchResource(path, signal, { first: FirstItems });
        if (!head.partial) return head;
        queryClient.setQueryData(queryKey, head);
      }
      return fetchResource(path, signal);
    },
  });
}
