import { badRequest } from '../errors.js';

export type CleanPath = {
  /** Canonical virtual path: leading `/`, no empty, `.` or `..` segments, no trailing slash (except "/"). */
  path: string;
  /** Whether the request ended with a slash (significant: POST of `dir/` creates a folder). */
  trailingSlash: boolean;
};

/** Longest virtual path accepted, and longest single name (most filesystems stop at 255 bytes). */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;

/**
 * Canonicalises an already percent-decoded virtual path. `..` is resolved lexically and can
 * never climb above the root. NUL bytes and over-long names are refused with 400. Backslashes
 * are path separators only on Windows; on POSIX they are ordinary name characters and can never
 * act as `..` separators, so they need no rewriting to be safe.
 */
export function cleanVirtualPath(decoded: string): CleanPath {
  if (decoded.includes('\0')) throw badRequest('invalid path');
  const unified = process.platform === 'win32' ? decoded.replace(/\\/g, '/') : decoded;
  if (Buffer.byteLength(unified) > MAX_PATH_BYTES) throw badRequest('path too long');
  const trailingSlash = unified.length > 1 && unified.endsWith('/');
  const segments: string[] = [];
  for (const segment of unified.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      segments.pop();
      continue;
    }
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES) throw badRequest('name too long');
    segments.push(segment);
  }
  return { path: '/' + segments.join('/'), trailingSlash: trailingSlash && segments.length > 0 };
}

/** Percent-decodes a path, refusing malformed escapes with 400. */
export function decodePathComponent(encoded: string): string {
  // Nothing to undo: the common case skips the decoder.
  if (!encoded.includes('%')) return encoded;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw badRequest('malformed path encoding');
  }
}

/** Joins a virtual base and a child name into a canonical virtual path. */
export function joinVirtual(base: string, name: string): string {
  return base === '/' ? `/${name}` : `${base}/${name}`;
}

export function parentOf(virtual: string): string {
  const index = virtual.lastIndexOf('/');
  return index <= 0 ? '/' : virtual.slice(0, index);
}

export function baseName(virtual: string): string {
  return virtual.slice(virtual.lastIndexOf('/') + 1);
}

/** True when `child` is `parent` or lies below it (segment boundary). */
export function isWithin(parent: string, child: string): boolean {
  if (parent === '/') return true;
  return child === parent || child.startsWith(parent + '/');
}
