import type { ArchiveFormat, PreviewSize, PublicSharePaths, Resource, ShareTokenParam } from '@burrow/protocol';
import { ApiPaths, Headers } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { apiUrl, requestJson } from './http-client';

// Values of the protocol's share constants: the protocol module that defines them also carries
// the schema runtime, which stays out of the browser. Their literal types keep them in step.
const PublicPreviewPath: (typeof PublicSharePaths)['preview'] = '/api/public/preview';
const PublicSubtitlePath: (typeof PublicSharePaths)['subtitle'] = '/api/public/subtitle';
const TokenParam: typeof ShareTokenParam = 'token';

/** What proves access to a protected link: its token (after one good password) or the password. */
export type ShareCredentials = { token?: string; password?: string };

/** `/{hash}{encoded sub-path}`: hashes are base64url, the path is encoded segment by segment. */
function sharePath(hash: string, path: string): string {
  const sub = path && path !== '/' ? encodePath(path.startsWith('/') ? path : `/${path}`) : '';
  return `/${encodeURIComponent(hash)}${sub}`;
}

function withQuery(url: string, params: Array<[string, string | undefined]>): string {
  const query = params
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  return query ? `${url}?${query}` : url;
}

/**
 * GET /api/public/share/{hash}{path}: the shared folder's listing or the shared file. No session
 * is sent, and a 401 here means "password needed", never "log out". A known token goes in the
 * query; a password in the `X-SHARE-PASSWORD` header, URL-encoded as the server expects.
 */
export function fetchPublicShare(hash: string, path: string, credentials: ShareCredentials = {}, signal?: AbortSignal): Promise<Resource> {
  const headers: Record<string, string> = {};
  if (credentials.password !== undefined) headers[Headers.sharePassword] = encodeURIComponent(credentials.password);
  const url = withQuery(ApiPaths.publicShare + sharePath(hash, path), [[TokenParam, credentials.token]]);
  return requestJson<Resource>(url, { headers, signal, auth: false });
}

export type DownloadOptions = {
  token?: string;
  /** Serve the file for viewing in the browser instead of as an attachment. */
  inline?: boolean;
  /** Archive format for folders and selections (zip when absent). */
  algo?: ArchiveFormat;
  /** Share-relative paths of the items to put in one archive. */
  files?: string[];
};

/**
 * The download address of a shared item: the page's share segment replaced by the public
 * download segment, with `?token=` for protected links. A selection is archived from the share
 * root, each path encoded once more inside the comma-separated `files=` list.
 */
export function publicDownloadUrl(hash: string, path: string, options: DownloadOptions = {}): string {
  const files = options.files?.length ? options.files.map((file) => encodeURIComponent(file)).join(',') : undefined;
  const target = files ? `/${encodeURIComponent(hash)}/` : sharePath(hash, path);
  return withQuery(apiUrl(ApiPaths.publicDownload + target), [
    ['files', files],
    ['inline', options.inline ? 'true' : undefined],
    ['algo', options.algo],
    [TokenParam, options.token],
  ]);
}

/** An image preview (`thumb` for list icons, `big` for the preview area) of a shared image. */
export function publicPreviewUrl(hash: string, path: string, size: PreviewSize, options: { token?: string; key?: string } = {}): string {
  return withQuery(apiUrl(`${PublicPreviewPath}/${size}${sharePath(hash, path)}`), [
    ['inline', 'true'],
    ['key', options.key],
    [TokenParam, options.token],
  ]);
}

/** A shared subtitle file as WebVTT, for the video player's tracks. */
export function publicSubtitleUrl(hash: string, path: string, token?: string): string {
  return withQuery(apiUrl(PublicSubtitlePath + sharePath(hash, path)), [
    ['inline', 'true'],
    [TokenParam, token],
  ]);
}
