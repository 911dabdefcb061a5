import type { FastifyRequest } from 'fastify';
import { decodePathComponent } from '../../storage/virtual-path.js';

/**
 * The percent-decoded text after `prefix` in the request path (the query string excluded).
 * Read from the URL itself so encoded slashes and dots reach the scope gate exactly as sent.
 */
export function decodedPathAfter(request: FastifyRequest, prefix: string): string {
  const url = request.url;
  const queryStart = url.indexOf('?');
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : '';
  return decodePathComponent(rest);
}

/**
 * Splits the decoded remainder of a public URL into the link hash and the sub-path. Decoding
 * comes first because filebrowser's client appends an encoded `/sub/path` straight after the
 * hash (`/api/public/dl/<hash>%2Fsub%2Fa.txt`); hashes never contain `/` or `%`.
 */
export function splitHashAndPath(decoded: string): { hash: string; subPath: string } {
  const trimmed = decoded.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  if (slash === -1) return { hash: trimmed, subPath: '/' };
  return { hash: trimmed.slice(0, slash), subPath: trimmed.slice(slash) || '/' };
}

/** A query parameter as one string (the first when repeated). */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}
