import { createResource } from '../api/resources';
import { joinPath, filesRoute } from '../lib/paths';
import { navigateTo } from '../lib/navigation';
import { queryClient } from '../lib/query-client';

/**
 * Creates a folder (trailing slash) or an empty file named `name` in `folder`, refreshes the
 * cached listing of that folder and opens the new item, or hands its path to `onCreated`
 * instead (the folder picker of the move and copy dialogs stays where it is).
 */
export async function createInFolder(folder: string, name: string, kind: 'folder' | 'file', onCreated?: (path: string) => void): Promise<void> {
  const path = joinPath(folder, name) + (kind === 'folder' ? '/' : '');
  await createResource(path, { override: false });
  await queryClient.invalidateQueries({ queryKey: ['resource'] });
  await queryClient.invalidateQueries({ queryKey: ['usage'] });
  if (onCreated) onCreated(path);
  else navigateTo(filesRoute(path));
}
