import type { Usage } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { requestJson } from './http-client';

/** GET /api/usage/{path}: used and total bytes of the filesystem holding the folder. */
export function fetchUsage(path: string, signal?: AbortSignal): Promise<Usage> {
  return requestJson<Usage>(ApiPaths.usage + encodePath(path), { signal });
}
