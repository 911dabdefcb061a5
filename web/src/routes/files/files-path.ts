import type { QueryClient } from '../../lib/query';
import type { Resource } from '@burrow/protocol';
import { decodePath, parentPath } from '../../lib/paths';

/**
 * The decoded virtual path of a files route (`/files/a%20b/` → `/a b/`), or undefined when the
 * location is not in the files screen. The trailing slash is kept: it marks a folder.
 */
export function filesPathOf(pathname: string): string | undefined {
  if (pathname !== '/files' && !pathname.startsWith('/files/')) return undefined;
  const rest = pathname.slice('/files'.length);
  return decodePath(rest || '/');
}

/** Query key of a resource (folder listing or file) by its decoded virtual path. */
export function resourceQueryKey(path: string) {
  return ['resource', path] as const;
}

/**
 * The folder new files and folders go into: the folder on screen, or the folder of the file on
 * screen, or the root outside the files screen.
 */
export function currentFolder(pathname: string, queryClient: QueryClient): string {
  const path = filesPathOf(pathname);
  if (path === undefined) return '/';
  if (path.endsWith('/')) return path;
  const shown = queryClient.getQueryData<Resource>(resourceQueryKey(path));
  return shown && !shown.isDir ? parentPath(path) : path + '/';
}
