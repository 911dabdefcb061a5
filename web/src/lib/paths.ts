/** Encodes each segment of a virtual path for a URL, keeping the slashes (and a trailing one). */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** Decodes each segment of an encoded path; a malformed segment is left as it is. */
export function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** Joins a folder path and a name: `/a/` + `b` → `/a/b`. */
export function joinPath(folder: string, name: string): string {
  return (folder.endsWith('/') ? folder : folder + '/') + name.replace(/^\/+/, '');
}

/** A path without its trailing slashes: `/a/b/` → `/a/b` (and `/` → ``). */
export function withoutTrailingSlash(path: string): string {
  return path.replace(/\/+$/, '');
}

/** A path without its trailing slashes, the root staying `/`: for comparing folders however they were written. */
export function trimmedPath(path: string): string {
  return withoutTrailingSlash(path) || '/';
}

/** True when `path` is `ancestor` itself or lies below it (`/a/b` is within `/a`, `/ab` is not). */
export function isWithinPath(path: string, ancestor: string): boolean {
  const child = trimmedPath(path);
  const parent = trimmedPath(ancestor);
  if (parent === '/') return true;
  return child === parent || child.startsWith(parent + '/');
}

/** The parent folder of a path, with a trailing slash: `/a/b.txt` → `/a/`. */
export function parentPath(path: string): string {
  const trimmed = withoutTrailingSlash(path);
  const index = trimmed.lastIndexOf('/');
  return index <= 0 ? '/' : trimmed.slice(0, index + 1);
}

/** The last segment of a path: `/a/b/` → `b`. */
export function baseName(path: string): string {
  const trimmed = withoutTrailingSlash(path);
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The route of a virtual path in the files screen. */
export function filesRoute(path: string): string {
  return '/files' + encodePath(path.startsWith('/') ? path : '/' + path);
}
