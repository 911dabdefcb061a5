import type { ArchiveFormat, ChecksumAlgorithm, PatchAction, Resource } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { apiUrl, request, requestJson } from './http-client';

/**
 * GET /api/resources/{path}: a folder listing or a file. `path` is a decoded virtual path. With
 * `first`, a folder's first items only (`partial` tells whether some were left out).
 */
export function fetchResource(path: string, signal?: AbortSignal, options: { first?: number } = {}): Promise<Resource> {
  const query = options.first === undefined ? '' : `?first=${options.first}`;
  return requestJson<Resource>(ApiPaths.resources + encodePath(path) + query, { signal });
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

/** DELETE /api/resources/{path}: removes a file or a whole folder. */
export async function deleteResource(path: string): Promise<void> {
  await request(ApiPaths.resources + encodePath(path), { method: 'DELETE' });
}

/** `copy` duplicates, `rename` moves (the protocol's name for both moving and renaming). */
export type TransferAction = PatchAction;

export type TransferOptions = {
  /** Replace an existing destination. */
  override?: boolean;
  /** Pick the first free `name(N)` when the destination exists. */
  rename?: boolean;
};

/**
 * PATCH /api/resources/{from}?action=…&destination=…: copies or moves one item to the decoded
 * path `to`. The destination is encoded twice, as the protocol expects: once per segment as in
 * every path, then once more as a query value.
 */
export async function transferResource(action: TransferAction, from: string, to: string, options: TransferOptions = {}): Promise<void> {
  const query = new URLSearchParams({
    action,
    destination: encodePath(to),
    override: String(options.override ?? false),
    rename: String(options.rename ?? false),
  });
  await request(`${ApiPaths.resources}${encodePath(from)}?${query.toString()}`, { method: 'PATCH' });
}

/** GET /api/resources/{path}?checksum=…: the hex digest of a file. */
export async function fetchChecksum(path: string, algorithm: ChecksumAlgorithm, signal?: AbortSignal): Promise<string> {
  const resource = await requestJson<Resource>(`${ApiPaths.resources}${encodePath(path)}?checksum=${algorithm}`, { signal });
  const digest = resource.checksums?.[algorithm];
  if (!digest) throw new Error(`the server sent no ${algorithm} checksum`);
  return digest;
}

/** URL of a file's raw content (the `auth` cookie authenticates the browser's own request). */
export function rawUrl(path: string, options: { inline?: boolean } = {}): string {
  return apiUrl(ApiPaths.raw + encodePath(path)) + (options.inline ? '?inline=true' : '');
}

/**
 * URL of an archive holding `names` (entries of `folder`) in the chosen format. Each element is
 * an encoded path relative to the folder; the comma-separated list is encoded once more, so
 * names containing commas or percent signs survive the server's second decoding.
 */
export function archiveUrl(folder: string, names: readonly string[], format: ArchiveFormat): string {
  const base = folder.endsWith('/') ? folder : folder + '/';
  const list = names.map((name) => encodePath('/' + name)).join(',');
  return apiUrl(ApiPaths.raw + encodePath(base)) + `?files=${encodeURIComponent(list)}&algo=${format}`;
}

/** URL of an archive of a whole folder's contents. */
export function folderArchiveUrl(folder: string, format: ArchiveFormat): string {
  const base = folder.endsWith('/') ? folder : folder + '/';
  return apiUrl(ApiPaths.raw + encodePath(base)) + `?algo=${format}`;
}

/** URL of an image's listing thumbnail; `modified` only busts the browser cache after a change. */
export function thumbnailUrl(path: string, modified: string): string {
  const key = Date.parse(modified);
  return apiUrl(`${ApiPaths.preview}/thumb${encodePath(path)}`) + `?inline=true&key=${Number.isNaN(key) ? encodeURIComponent(modified) : key}`;
}
