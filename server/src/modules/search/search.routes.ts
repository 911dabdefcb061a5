import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, SearchQuery, WildcardParams, mediaResponse, responses, type SearchResult } from '@burrow/protocol';
import { currentUser } from '../../plugins/auth.js';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import type { SearchService } from './search.service.js';

/** Upstream writes one blank line when a search has said nothing for this long. */
const KEEP_ALIVE_MS = 5_000;

/** Aborts when the client goes away before the response is complete. */
function disconnectSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const abort = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', abort);
  request.raw.once('aborted', abort);
  return controller.signal;
}

/**
 * Newline-delimited JSON, one line per result, each batch handed on as soon as it exists; a blank
 * line keeps a quiet connection alive (clients skip blank lines).
 */
export async function* ndjson(batches: AsyncIterable<SearchResult[]>, signal: AbortSignal, keepAliveMs = KEEP_ALIVE_MS): AsyncGenerator<string> {
  const iterator = batches[Symbol.asyncIterator]();
  try {
    let pending = iterator.next();
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<'quiet'>((resolve) => {
        timer = setTimeout(() => resolve('quiet'), keepAliveMs);
      });
      const next = await Promise.race([pending, quiet]);
      clearTimeout(timer);
      if (signal.aborted) return;
      if (next === 'quiet') {
        yield '\n';
        continue;
      }
      if (next.done) return;
      yield next.value.map((result) => JSON.stringify({ dir: result.dir, path: result.path }) + '\n').join('');
      pending = iterator.next();
    }
  } finally {
    // Stops the walk or index scan behind the stream (client gone, or stream finished).
    void iterator.return?.(undefined);
  }
}

/** `GET /api/search/{path}?query=`: streamed results (wire protocol, section 10). */
export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  const prefix = ApiPaths.search;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const signal = disconnectSignal(request, reply);
    const results = await search.search(currentUser(request), pathAfter(request.url, prefix), queryValue(request, 'query') ?? '', signal);
    // Upstream sets no type and Go then sniffs plain text; the front end reads the body as text.
    reply.header('content-type', 'text/plain; charset=utf-8');
    return reply.send(Readable.from(ndjson(results, signal), { objectMode: false }));
  };
  for (const url of [prefix, `${prefix}/*`]) {
    const schema = {
      summary: 'Search below a folder: newline-delimited JSON, one {"dir","path"} object per line, streamed (blank lines keep the connection alive)',
      tags: [ApiTags.search],
      ...(url.endsWith('/*') ? { params: WildcardParams } : {}),
      querystring: SearchQuery,
      response: responses({ 200: mediaResponse('The results as they are found', ['text/plain']) }),
    };
    app.get(url, { preHandler: app.requireUser, schema }, handler);
  }
};
