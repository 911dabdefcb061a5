/**
 * Resumable uploads: the tus 1.0 core subset tus-js-client speaks against `/api/tus{path}`.
 * An upload is addressed by its target path (per user), exactly as filebrowser does, so the
 * `Location` of a created upload is the same URL without the query string.
 */
export const TusVersion = '1.0.0';

/** The only body type a PATCH accepts. */
export const TusContentType = 'application/offset+octet-stream';

/** Header names, lower-case as Node.js exposes them. */
export const TusHeaders = {
  resumable: 'tus-resumable',
  uploadLength: 'upload-length',
  uploadOffset: 'upload-offset',
  uploadMetadata: 'upload-metadata',
  uploadDeferLength: 'upload-defer-length',
} as const;

/** Query parameter of the creating POST: replace an existing file when true. */
export const TusOverrideQuery = 'override';

/** Builds the tus URL of a virtual path: each segment percent-encoded, the base URL in front. */
export function tusLocation(baseURL: string, virtualPath: string): string {
  const encoded = virtualPath
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${baseURL}/api/tus${encoded}`;
}
