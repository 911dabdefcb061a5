import fp from 'fastify-plugin';
import { forbidden } from '../errors.js';
import { pathnameOf } from '../http/request-path.js';

/** Splits a Host header into its lower-cased name (brackets kept for IPv6) and port. */
function parseHost(value: string): { name: string; port?: string } | undefined {
  const host = value.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return undefined;
  // A fully qualified name may end with a dot; it names the same host.
  return { name: match[1]!.replace(/\.$/, ''), port: match[2] };
}

/**
 * Whether a Host header value is one of `allowed`: `*` accepts any; `name` any port of that name;
 * `name:port` only that port; `*.example.com` the sub-domains of example.com.
 */
export function isAllowedHost(value: string | undefined, allowed: string[]): boolean {
  if (allowed.includes('*')) return true;
  if (!value) return false;
  const host = parseHost(value);
  if (!host) return false;
  return allowed.some((entry) => {
    const wanted = parseHost(entry.startsWith('*.') ? entry.slice(1) : entry);
    if (!wanted) return false;
    if (wanted.port !== undefined && wanted.port !== host.port) return false;
    if (entry.startsWith('*.')) return host.name.endsWith(wanted.name) && host.name.length > wanted.name.length;
    return host.name === wanted.name;
  });
}

/**
 * Refuses requests whose `Host` is not an allowed name with 403, before any authentication: a
 * page on another site that rebinds its own name to this server's address then cannot use the
 * browser to reach the API or the command socket. The health checks stay open to probes, which
 * often address the server by whatever name or address they were given.
 */
export const allowedHostsPlugin = fp<{ allowedHosts: string[] }>(async (app, { allowedHosts }) => {
  if (allowedHosts.includes('*')) return;
  app.addHook('onRequest', async (request, reply) => {
    const path = pathnameOf(request.url);
    if (path === '/health' || path.startsWith('/health/')) return;
    if (isAllowedHost(request.headers.host, allowedHosts)) return;
    // A refused WebSocket upgrade owns its socket: nothing else closes it once the answer is out.
    if (request.headers.upgrade) reply.raw.once('finish', () => request.raw.socket.destroy());
    throw forbidden();
  });
});
