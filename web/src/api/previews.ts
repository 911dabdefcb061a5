import type { PreviewSize } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { apiUrl } from './http-client';

/**
 * URL of a resized image (`thumb`: a 256 px square, `big`: fits 1080 px). `modified` busts the
 * browser cache when the file changes; the `auth` cookie authenticates the request.
 */
export function previewUrl(path: string, size: PreviewSize, modified: string): string {
  const key = Date.parse(modified);
  return `${apiUrl(`${ApiPaths.preview}/${size}${encodePath(path)}`)}?inline=true&key=${Number.isNaN(key) ? 0 : key}`;
}

/** URL of a subtitle file converted to WebVTT, for a `<track>`. */
export function subtitleUrl(path: string): string {
  return `${apiUrl(ApiPaths.subtitle + encodePath(path))}?inline=true`;
}
