import type { SearchResult } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { requestLines } from './http-client';

function parseResult(line: string): SearchResult | undefined {
  try {
    const value = JSON.parse(line) as Partial<SearchResult>;
    return typeof value.path === 'string' ? { dir: value.dir === true, path: value.path } : undefined;
  } catch {
    // A line cut short by a dropped connection is not a result.
    return undefined;
  }
}

/**
 * GET /api/search/{folder}?query=: the server streams newline-delimited results while it walks
 * (or reads its index); each batch is handed on as it arrives. `folder` is a decoded virtual
 * path. Aborting `signal` ends the request and the walk behind it.
 */
export async function* searchFolder(folder: string, query: string, signal?: AbortSignal): AsyncGenerator<SearchResult[]> {
  const path = `${ApiPaths.search}${encodePath(folder.startsWith('/') ? folder : '/' + folder)}?query=${encodeURIComponent(query)}`;
  for await (const lines of requestLines(path, { signal })) {
    const results = lines.map(parseResult).filter((result): result is SearchResult => result !== undefined);
    if (results.length > 0) yield results;
  }
}
