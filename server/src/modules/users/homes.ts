import { badRequest } from '../../errors.js';
import { cleanVirtualPath } from '../../storage/virtual-path.js';

/**
 * A username cleaned for use as a folder name: spaces trimmed, `..` dropped, anything outside
 * [0-9A-Za-z@_.-] turned into `-`, dashes collapsed.
 */
function cleanUsernameForHome(username: string): string {
  const cleaned = username
    .trim()
    .replace(/\.\./g, '')
    .replace(/[^0-9A-Za-z@_.-]/g, '-')
    .replace(/-+/g, '-');
  if (cleaned === '' || cleaned === '-' || cleaned === '.') throw badRequest('cannot derive a home folder from this username');
  return cleaned;
}

export function homeScope(userHomeBasePath: string, username: string): string {
  const base = cleanVirtualPath(userHomeBasePath || '/users').path;
  return cleanVirtualPath(`${base}/${cleanUsernameForHome(username)}`).path;
}

/** Makes a scope absolute and canonical; refuses anything that could leave the root. */
export function normaliseScope(scope: string): string {
  const trimmed = scope.trim();
  if (trimmed.includes('\0')) throw badRequest('invalid scope');
  return cleanVirtualPath(trimmed === '' || trimmed === '.' ? '/' : trimmed).path;
}

/** Serialises async sections (home-collision checks and the saves that follow them). */
export function createMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return function runExclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = tail.then(task, task);
    tail = result.catch(() => undefined);
    return result;
  };
}
