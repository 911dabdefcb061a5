import FindMyWay from 'find-my-way';
import type { RouteOptions } from 'fastify';
import { pathnameOf } from '../http/request-path.js';

/**
 * Every route the app registers, kept in a second router so that a request nobody answers can be
 * told apart: a known path asked with the wrong method gets 405 with `Allow` (as the wire
 * protocol says), an unknown path 404.
 */
export function createRouteTable() {
  const router = FindMyWay({ ignoreDuplicateSlashes: false, maxParamLength: 8192 });
  const methods = new Set<string>();
  const noop = () => undefined;
  return {
    /** The `onRoute` hook: call it for each route as it is registered. */
    record(route: RouteOptions): void {
      const list = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of list) {
        const upper = method.toUpperCase();
        // Wildcard paths and shorthand duplicates may register the same pattern twice.
        if (router.hasRoute(upper as never, route.url)) continue;
        router.on(upper as never, route.url, noop);
        methods.add(upper);
      }
    },
    /** The methods some route answers for this URL (path only; any query is ignored). */
    allowedMethods(url: string): string[] {
      const pathname = pathnameOf(url);
      return [...methods].filter((method) => router.find(method as never, pathname) !== null).sort();
    },
  };
}

export type RouteTable = ReturnType<typeof createRouteTable>;
