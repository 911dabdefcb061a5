import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../errors.js';
import { cleanVirtualPath, decodePathComponent } from '../../storage/virtual-path.js';
import { davError } from './responses.js';

/** Where WebDAV is served, below the base URL. */
export const DAV_PREFIX = '/dav';

/** Percent-encodes each segment of a virtual path (RFC 3986 unreserved characters stay). */
function encodeVirtual(virtual: string): string {
  return virtual
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

/** The href of a resource: base URL aware, collections ending in `/` as clients such as davfs2 expect. */
export function hrefOf(baseURL: string, virtual: string, isCollection: boolean): string {
  if (virtual === '/') return `${baseURL}${DAV_PREFIX}/`;
  return `${baseURL}${DAV_PREFIX}${encodeVirtual(virtual)}${isCollection ? '/' : ''}`;
}

function firstHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `url` names the host the request was sent to (default ports compare equal to none). */
function sameHost(hostHeader: string | undefined, url: URL): boolean {
  if (!hostHeader) return false;
  try {
    return new URL(`${url.protocol}//${hostHeader}`).host === url.host;
  } catch {
    return false;
  }
}

/**
 * Turns a URL naming a resource of this server (a Destination header, a tagged `If` list) into
 * a decoded path in the WebDAV namespace. Absolute URLs must name this host (the request's own
 * `Host`) and lie under the base URL's `/dav/`; anything else is another server's resource and
 * is refused with 502, as RFC 4918 asks for COPY and MOVE. Returns the path with its trailing
 * slash kept, before canonicalisation (the scope's gate cleans and confines it).
 */
export function pathOfUrl(request: FastifyRequest, baseURL: string, value: string): string {
  let pathname: string;
  const trimmed = value.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw badRequest('malformed destination');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw davError(502, 'destination on another server');
    if (!sameHost(firstHeader(request, 'host'), url) || url.username || url.password) throw davError(502, 'destination on another server');
    // The URL parser has already resolved dot segments; only the path's raw spelling is kept.
    pathname = url.pathname;
  } else {
    if (!trimmed.startsWith('/') || trimmed.startsWith('//')) throw badRequest('malformed destination');
    pathname = trimmed.replace(/[?#].*$/, '');
  }
  const prefix = `${baseURL}${DAV_PREFIX}`;
  // Dot segments are resolved before the prefix is checked, so `/dav/../api` never passes.
  const decodedWhole = decodePathComponent(pathname);
  const canonical = cleanVirtualPath(decodedWhole);
  const inside = canonical.path === prefix || canonical.path.startsWith(`${prefix}/`);
  if (!inside) throw davError(502, 'destination outside the WebDAV namespace');
  const rest = canonical.path.slice(prefix.length) || '/';
  return canonical.trailingSlash && rest !== '/' ? `${rest}/` : rest;
}

/** The Destination header of COPY and MOVE as a decoded path (400 when missing). */
export function destinationOf(request: FastifyRequest, baseURL: string): string {
  const header = firstHeader(request, 'destination');
  if (!header) throw badRequest('missing Destination header');
  return pathOfUrl(request, baseURL, header);
}
