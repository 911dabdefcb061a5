import { decodePath, encodePath } from '../../lib/paths';

export type ShareLocation = {
  hash: string;
  /** Decoded path inside the share, `/` at its root; a trailing slash marks a folder. */
  path: string;
};

/** `/share/{hash}{path}` (router-relative, still encoded) → the link's hash and the decoded path in it. */
export function shareLocationOf(pathname: string): ShareLocation | undefined {
  const match = /^\/share\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match) return undefined;
  let hash = match[1]!;
  try {
    hash = decodeURIComponent(hash);
  } catch {
    // A malformed escape cannot name a link; the server will answer 404 for it as it is.
  }
  return { hash, path: decodePath(match[2] || '/') };
}

/** The page route of a path inside a share. */
export function shareRoute(hash: string, path: string): string {
  const inner = path === '' || path === '/' ? '/' : encodePath(path.startsWith('/') ? path : `/${path}`);
  return `/share/${encodeURIComponent(hash)}${inner}`;
}
