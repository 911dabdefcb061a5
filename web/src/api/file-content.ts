import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { request } from './http-client';

/** PUT /api/resources/{path}: replaces a file's content with the given text. */
export async function saveFileText(path: string, text: string, signal?: AbortSignal): Promise<void> {
  await request(ApiPaths.resources + encodePath(path), {
    method: 'PUT',
    body: text,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    signal,
  });
}
