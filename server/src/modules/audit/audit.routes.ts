import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiTags,
  mediaResponse,
  responses,
  AuditCsvColumns,
  AuditExportQuery,
  AuditPage,
  AuditPaths,
  AuditQuery,
  AuditSettings,
  type AuditEntry,
  type AuditExportFormat,
} from '@burrow/protocol';
import { decodeCursor, encodeCursor, parseFilters, presentRow, type AuditFilters } from './audit.repository.js';
import { actorOf, type AuditService } from './audit.service.js';
import { csvLine } from './csv.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

function csvRecord(entry: AuditEntry): string {
  return csvLine([entry.time, entry.userId ?? '', entry.username, entry.client, entry.action, entry.path, entry.destination, entry.outcome, entry.status, JSON.stringify(entry.details)]);
}

/** The export as text chunks, read from the database a batch at a time (never held whole). */
async function* exportLines(audit: AuditService, filters: AuditFilters, format: AuditExportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield csvLine(AuditCsvColumns);
  let chunk = '';
  for await (const row of audit.repository.each(filters)) {
    const entry = presentRow(row);
    chunk += format === 'csv' ? csvRecord(entry) : `${JSON.stringify(entry)}\n`;
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** `/api/audit` (admins only): the log page by page, its export and its retention settings. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService; sweep: () => Promise<unknown> }> = async (app, { audit, sweep }) => {
  const guard = app.requireAdmin;

  const tags = [ApiTags.audit];
  app.get(AuditPaths.list, { preHandler: guard, schema: { summary: 'A page of the audit log, newest first', tags, querystring: AuditQuery, response: responses({ 200: AuditPage }) } }, async (request) => {
    const query = request.query;
    const filters = parseFilters(query);
    const limit = Math.min(Math.max(Number(query.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
    await audit.flush();
    const rows = await audit.repository.page(filters, limit + 1, decodeCursor(query.cursor));
    const page = rows.slice(0, limit);
    return { items: page.map(presentRow), next: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
  });

  app.get(
    AuditPaths.export,
    {
      preHandler: guard,
      schema: { summary: 'Every matching entry, streamed as CSV or JSON lines', tags, querystring: AuditExportQuery, response: responses({ 200: mediaResponse('The entries', ['text/csv', 'application/x-ndjson']) }) },
    },
    async (request, reply) => {
    const query = request.query;
    const filters = parseFilters(query);
    await audit.flush();
    const day = new Date().toISOString().slice(0, 10);
    const csv = query.format === 'csv';
    return reply
      .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${day}.${csv ? 'csv' : 'ndjson'}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Readable.from(exportLines(audit, filters, query.format)));
  });

  app.get(AuditPaths.settings, { preHandler: guard, schema: { summary: 'Retention of the audit log', tags, response: responses({ 200: AuditSettings }) } }, async () => audit.settings());

  app.put(AuditPaths.settings, { preHandler: guard, schema: { summary: 'Change the retention of the audit log', tags, body: AuditSettings, response: responses({ 200: AuditSettings }) } }, async (request) => {
    const before = audit.settings();
    const saved = await audit.saveSettings(request.body);
    const keys = (Object.keys(saved) as (keyof AuditSettings)[]).filter((key) => saved[key] !== before[key]);
    await audit.record({ actor: actorOf(request), client: request.clientAddress, action: 'audit.settings', outcome: 'ok', status: 200, details: { keys, ...saved } });
    void sweep();
    return saved;
  });
};
