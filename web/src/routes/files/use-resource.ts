import { useQuery } from '../../lib/query';
import { fetchResource } from '../../api/resources';
import { resourceQueryKey } from './files-path';

/** The folder listing or file at a decoded virtual path; the request is aborted when left. */
export function useResource(path: string) {
  return useQuery({
    queryKey: resourceQueryKey(path),
    queryFn: ({ signal }) => fetchResource(path, signal),
  });
}
