import type { Share, ShareUnit } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { request, requestJson } from './http-client';

/** GET /api/shares: the caller's links, or every link for an admin (with owner names). */
export function listShares(signal?: AbortSignal): Promise<Share[]> {
  return requestJson<Share[]>(ApiPaths.shares, { signal });
}

/** GET /api/share/{path}: the links made for exactly this file or folder. */
export function fetchLinks(path: string, signal?: AbortSignal): Promise<Share[]> {
  return requestJson<Share[]>(ApiPaths.share + encodePath(path), { signal });
}

export type NewShare = {
  /** Whole number of `unit`s; 0 makes the link permanent. */
  expires: number;
  unit: ShareUnit;
  /** Empty for a link without password. */
  password: string;
  /** Makes an upload-only link (a file request) with this note and these limits (0: none). */
  request?: { note: string; maxFileSize: number; maxTotalSize: number; maxFiles: number };
};

/**
 * POST /api/share/{path}. The duration goes as a string in the body, as filebrowser's client
 * sends it, and is repeated in the query where older servers looked for it.
 */
export function createShare(path: string, share: NewShare): Promise<Share> {
  const expires = String(share.expires);
  const query = `?expires=${encodeURIComponent(expires)}&unit=${encodeURIComponent(share.unit)}`;
  const base = share.password ? { password: share.password, expires, unit: share.unit } : { expires, unit: share.unit };
  const body = share.request ? { ...base, uploadOnly: true, ...share.request } : base;
  return requestJson<Share>(ApiPaths.share + encodePath(path) + query, { method: 'POST', body });
}

/** DELETE /api/share/{hash}. */
export async function deleteShare(hash: string): Promise<void> {
  await request(`${ApiPaths.share}/${encodeURIComponent(hash)}`, { method: 'DELETE' });
}

/** The public address of a link: `{origin}{BaseURL}/share/{hash}`. */
export function shareLinkUrl(hash: string, baseURL: string, origin: string = window.location.origin): string {
  return `${origin}${baseURL.replace(/\/+$/, '')}/share/${encodeURIComponent(hash)}`;
}
