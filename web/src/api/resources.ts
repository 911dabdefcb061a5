import type { Resource } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { apiUrl, request, requestJson } from './http-client';

/** GET /api/resources/{path}: a folder listing or a file. `path` is a decoded virtual path. */
export function fetchResource(path: string, signal?: AbortSignal): Promise<Resource> {
  return requestJson<Resource>(ApiPaths.resources + encodePath(path), { signal });
}

/**
 * POST /api/resources/{path}: creates a file (with an optional body) or, when the path ends in
 * a slash, a folder. Without `override` an existing file answers 409.
 */
export async function createResource(path: string, options: { body?: BodyInit; override?: boolean } = {}): Promise<void> {
  await request(`${ApiPaths.resources}${encodePath(path)}?override=${options.override ? 'true' : 'false'}`, {
    method: 'POST',
    body: options.body ?? '',
  });
}

/** URL of a file's raw content (the `auth` cookie authenticates the browser's own request). */
export function rawUrl(path: string, options: { inline?: boolean } = {}): string {
  return apiUrl(ApiPaths.raw + encodePath(path)) + (options.inline ? '?inline=true' : '');
}
