import { createResource } from '../api/resources';
import { joinPath, filesRoute } from '../lib/paths';
import { navigateTo } from '../lib/navigation';
import { queryClient } from '../lib/query-client';

/**
 * Creates a folder (trailing slash) or an empty file named `name` in `folder`, refreshes the
 * cached listing of that folder and opens the new item.
 */
export async function createInFolder(folder: string, name: string, kind: 'folder' | 'file'): Promise<void> {
  const path = joinPath(folder, name) + (kind === 'folder' ? '/' : '');
  await createResource(path, { override: false });
  await queryClient.invalidateQueries({ queryKey: ['resource'] });
  await queryClient.invalidateQueries({ queryKey: ['usage'] });
  navigateTo(filesRoute(path));
}
