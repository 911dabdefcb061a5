import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the index reports for the gauges; read at scrape time. */
export type IndexStatus = { entries: number; complete: boolean; backlog: number; lagSeconds: number };

export type MetricsSources = {
  /** Resumable uploads begun and not yet finished. */
  uploadsInProgress: () => Promise<number>;
  /** The search index, when the server runs one. */
  searchIndex: () => IndexStatus | undefined;
};

/** One answered request, as the HTTP layer saw it. */
export type RequestSample = {
  method: string;
  /** The route pattern (`/api/raw/*`), never the requested path: labels must stay few. */
  route: string;
  status: number;
  seconds: number;
  bytesIn: number;
  bytesOut: number;
};

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The server's Prometheus metrics, in a registry of their own (never prom-client's global one, so
 * that several servers in one process keep separate figures). Process figures (memory, CPU, event
 * loop lag, handles) come from prom-client's default collectors.
 */
export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: 'burrow_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'burrow_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'burrow_http_requests_in_flight', help: 'HTTP requests being answered now.', registers: [registry] });
  const uploaded = new Counter({
    name: 'burrow_uploaded_bytes_total',
    help: 'Bytes received in request bodies, by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const downloaded = new Counter({
    name: 'burrow_downloaded_bytes_total',
    help: 'Bytes sent in answers, by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const tusChunks = new Counter({
    name: 'burrow_tus_chunks_total',
    help: 'Resumable upload chunks (tus PATCH requests), by status.',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const archives = new Counter({
    name: 'burrow_archive_jobs_total',
    help: 'Archives streamed, by format.',
    labelNames: ['format'] as const,
    registers: [registry],
  });
  const archivesRunning = new Gauge({ name: 'burrow_archive_jobs_in_progress', help: 'Archives being streamed now.', registers: [registry] });
  const loginFailures = new Counter({ name: 'burrow_login_failures_total', help: 'Logins refused for a wrong username or password.', registers: [registry] });
  const rateLimited = new Counter({
    name: 'burrow_rate_limited_total',
    help: 'Requests refused by a rate limit (429), by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'burrow_uploads_in_progress',
    help: 'Resumable uploads begun and not yet finished or expired.',
    registers: [registry],
    async collect() {
      this.set(await sources.uploadsInProgress());
    },
  });

  const indexGauge = (name: string, help: string, pick: (status: IndexStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const status = sources.searchIndex();
        if (status) this.set(pick(status));
      },
    });
  indexGauge('burrow_search_index_entries', 'Names held by the search index.', (status) => status.entries);
  indexGauge('burrow_search_index_complete', '1 once the first full build of the search index has finished.', (status) => (status.complete ? 1 : 0));
  indexGauge('burrow_search_index_backlog', 'Changes reported to the search index and not yet applied.', (status) => status.backlog);
  indexGauge('burrow_search_index_lag_seconds', 'Age of the oldest change not yet applied to the search index.', (status) => status.lagSeconds);

  return {
    registry,
    requestStarted(): void {
      inFlight.inc();
    },
    requestEnded(sample: RequestSample): void {
      inFlight.dec();
      const status = String(sample.status);
      requests.inc({ method: sample.method, route: sample.route, status });
      duration.observe({ method: sample.method, route: sample.route }, sample.seconds);
      if (sample.bytesIn > 0) uploaded.inc({ route: sample.route }, sample.bytesIn);
      if (sample.bytesOut > 0) downloaded.inc({ route: sample.route }, sample.bytesOut);
      if (sample.status === 429) rateLimited.inc({ route: sample.route });
    },
    tusChunk(status: number): void {
      tusChunks.inc({ status: String(status) });
    },
    archiveStarted(format: string): void {
      archives.inc({ format });
      archivesRunning.inc();
    },
    archiveEnded(): void {
      archivesRunning.dec();
    },
    loginFailed(): void {
      loginFailures.inc();
    },
  };
}
