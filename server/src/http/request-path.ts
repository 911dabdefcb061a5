import { badRequest } from '../errors.js';
import { decodePathComponent } from '../storage/virtual-path.js';

/** The path part of a request URL: everything before the query string. */
export function pathnameOf(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}

/**
 * The percent-decoded path of a request below a route prefix: `/api/raw/a%20b/` under
 * `/api/raw` is `/a b/`. It is read from the URL itself (the query string dropped), not from the
 * router's parameters, so what the client encoded is decoded exactly once. The rules, the same
 * for every route that takes a path after its prefix:
 *
 * - Nothing after the prefix, or the prefix alone, is `/`.
 * - The prefix matches whole segments, compared decoded: `/api/%72aw/x` is below `/api/raw`
 *   (the router matched it there too), `/api/rawx` and `/api/raw%2Fx` are not (400).
 * - `%2F` decodes to `/`, a separator like a literal one (filebrowser's client encodes whole
 *   sub-paths that way); `%25` becomes a literal `%` and is never decoded a second time.
 * - `.` and `..` segments and doubled slashes are passed on as sent: the scope gate
 *   (`cleanVirtualPath`) resolves them lexically and never above the root, and refuses NUL
 *   bytes and over-long names with 400.
 * - A trailing slash is kept: it is significant (POST of `dir/` creates a folder).
 * - Malformed percent-encoding is refused with 400.
 */
export function pathAfter(url: string, prefix: string): string {
  const pathname = pathnameOf(url);
  let position = 0;
  if (pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname[prefix.length] === '/')) {
    position = prefix.length;
  } else {
    // Slow path: the prefix was spelled with escapes. Match it segment by segment, decoded.
    for (const expected of prefix.split('/').slice(1)) {
      if (pathname[position] !== '/') throw badRequest(`request path is not below ${prefix}`);
      const next = pathname.indexOf('/', position + 1);
      const end = next < 0 ? pathname.length : next;
      if (decodePathComponent(pathname.slice(position + 1, end)) !== expected) throw badRequest(`request path is not below ${prefix}`);
      position = end;
    }
  }
  return decodePathComponent(pathname.slice(position) || '/');
}
