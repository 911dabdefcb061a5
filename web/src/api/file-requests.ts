import type { FileRequestInfo, PublicSharePaths } from '@burrow/protocol';
import { Headers } from '@burrow/protocol/paths';
import { apiUrl, requestJson } from './http-client';

// The protocol's constant, as a literal: the module defining it carries the schema runtime.
const PublicUploadPath: (typeof PublicSharePaths)['upload'] = '/api/public/upload';

/** The password header as the server reads it (URL-encoded), or nothing for an open link. */
export function fileRequestHeaders(password: string | undefined): Record<string, string> {
  return password === undefined ? {} : { [Headers.sharePassword]: encodeURIComponent(password) };
}

/** GET /api/public/upload/{hash}: the note and limits of an upload-only link. No session is sent. */
export function fetchFileRequest(hash: string, password: string | undefined, signal?: AbortSignal): Promise<FileRequestInfo> {
  return requestJson<FileRequestInfo>(`${PublicUploadPath}/${encodeURIComponent(hash)}`, { headers: fileRequestHeaders(password), signal, auth: false });
}

/** The absolute tus creation address of an upload-only link. */
export function fileRequestEndpoint(hash: string, origin: string = window.location.origin): string {
  return new URL(apiUrl(`${PublicUploadPath}/${encodeURIComponent(hash)}`), origin).href;
}
