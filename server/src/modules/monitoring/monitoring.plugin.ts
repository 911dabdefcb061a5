import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiPaths, ApiTags, HealthLive, HealthReady, mediaResponse, responses } from '@burrow/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../storage/db.js';
import { createHealthRepository } from './health.repository.js';
import { createUploadsRepository } from '../uploads/uploads.repository.js';
import { forbidden, notFound, unauthorized } from '../../errors.js';
import { isTrustedProxy } from '../auth/proxy.js';
import { archiveChannel, type ArchiveAnnouncement } from '../downloads/send-archive.js';
import type { IndexStatus, Metrics } from './metrics.js';

export type MonitoringOptions = {
  config: Pick<Config, 'metrics' | 'metricsToken' | 'metricsAllowedAddresses'>;
  db: Db;
  /** The search index's state, once the search module runs one. */
  searchIndex: () => IndexStatus | undefined;
};

const LOOPBACK = ['127.0.0.0/8', '::1'];

/** Bytes a socket has moved so far; injected requests have no real socket, so no figures. */
function socketBytes(request: FastifyRequest): { read: number; written: number } {
  const socket = request.raw.socket as { bytesRead?: number; bytesWritten?: number } | undefined;
  return { read: socket?.bytesRead ?? 0, written: socket?.bytesWritten ?? 0 };
}

function contentLength(value: unknown): number {
  const length = Number(Array.isArray(value) ? value[0] : value);
  return Number.isFinite(length) && length > 0 ? length : 0;
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * Operations: `/health` (live, as before), `/health/live`, `/health/ready` (the database answers
 * and the search index has finished its first build) and, when turned on, `/metrics` in
 * Prometheus' text format. Metrics are turned on or off at start; when off, nothing is measured
 * and the metrics library is never loaded (its collectors keep a timer and a few megabytes).
 */
export const monitoringPlugin = fp<MonitoringOptions>(async (app, options) => {
  const { config, db, searchIndex } = options;
  const health = createHealthRepository(db);
  const metrics = config.metrics ? await measureRequests(app, options) : undefined;

  const live = async () => ({ status: 'OK' });
  const tags = [ApiTags.monitoring];
  const security: never[] = [];
  const liveSchema = { summary: 'Whether the process answers', tags, security, response: responses({ 200: HealthLive }) };
  app.get('/health', { schema: liveSchema }, live);
  app.get('/health/live', { schema: liveSchema }, live);
  const readySchema = { summary: 'Whether the database answers and the search index is complete', tags, security, response: responses({ 200: HealthReady, 503: HealthReady }) };
  app.get('/health/ready', { schema: readySchema }, async (_request, reply) => {
    let database = 'ok';
    try {
      await health.ping();
    } catch {
      database = 'unreachable';
    }
    const status = searchIndex();
    const index = status === undefined ? 'unavailable' : status.complete ? 'ready' : 'building';
    const ready = database === 'ok' && index === 'ready';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', database, index });
  });

  function allowed(request: FastifyRequest): 'yes' | 'unauthorized' | 'forbidden' {
    const header = request.headers.authorization;
    if (config.metricsToken && typeof header === 'string' && header.startsWith('Bearer ') && sameSecret(header.slice(7).trim(), config.metricsToken)) {
      return 'yes';
    }
    // The direct peer, never a forwarded address: a header cannot vouch for itself.
    const peer = request.raw.socket?.remoteAddress ?? '';
    const addresses = config.metricsAllowedAddresses.length > 0 ? config.metricsAllowedAddresses : config.metricsToken ? [] : LOOPBACK;
    if (addresses.length > 0 && isTrustedProxy(peer, addresses)) return 'yes';
    return config.metricsToken ? 'unauthorized' : 'forbidden';
  }

  const metricsSchema = {
    summary: 'Prometheus metrics, when enabled (a bearer token or an allowed address)',
    tags,
    security: [{ bearer: [] }],
    response: responses({ 200: mediaResponse('Metrics in the Prometheus text format', ['text/plain']) }),
  };
  app.get('/metrics', { schema: metricsSchema }, async (request: FastifyRequest, reply: FastifyReply) => {
    // Off answers as if there were no such page, whoever asks.
    if (!metrics) throw notFound();
    const verdict = allowed(request);
    if (verdict === 'unauthorized') {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized();
    }
    if (verdict === 'forbidden') throw forbidden();
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
});

/** Measures every request and archive into the server's metrics. */
async function measureRequests(app: FastifyInstance, options: MonitoringOptions): Promise<Metrics> {
  const { createMetrics } = await import('./metrics.js');
  const uploads = createUploadsRepository(options.db);
  const metrics = createMetrics({
    uploadsInProgress: () => uploads.count(),
    searchIndex: options.searchIndex,
  });

  app.addHook('onRequest', async (request, reply) => {
    const started = process.hrtime.bigint();
    const before = socketBytes(request);
    metrics.requestStarted();
    // 'close' comes once for every answer, finished or cut off by the client.
    reply.raw.once('close', () => {
      const after = socketBytes(request);
      const route = request.routeOptions.url ?? '(unmatched)';
      const status = reply.raw.statusCode;
      // Downloads sent with sendfile bypass the socket's own counters: an answer that finished
      // counts its declared length; one cut off counts what the socket saw go out.
      const declared = contentLength(reply.getHeader('content-length'));
      const bytesOut = reply.raw.writableFinished && declared > 0 ? declared : after.written - before.written;
      const bytesIn = after.read > before.read ? after.read - before.read : contentLength(request.headers['content-length']);
      metrics.requestEnded({ method: request.method, route, status, seconds: Number(process.hrtime.bigint() - started) / 1e9, bytesIn, bytesOut });
      if (request.method === 'PATCH' && route.startsWith(ApiPaths.tus)) metrics.tusChunk(status);
      if (request.method === 'POST' && route === ApiPaths.login && status === 403) metrics.loginFailed();
    });
  });

  // Archives announce themselves on a diagnostics channel, so the downloads code knows nothing of metrics.
  const onArchive = (message: unknown) => {
    const { format, ended } = message as ArchiveAnnouncement;
    metrics.archiveStarted(format);
    void ended.then(() => metrics.archiveEnded());
  };
  archiveChannel.subscribe(onArchive);
  app.addHook('onClose', async () => {
    archiveChannel.unsubscribe(onArchive);
  });
  return metrics;
}
