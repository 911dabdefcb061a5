import type { AuditOutcome, AuditPage, AuditSettings } from '@burrow/protocol';
import { AuditPaths, type AuditExportFormat } from '@burrow/protocol/audit-constants';
import { apiUrl, requestJson } from './http-client';

/** The filters of the audit screen; empty strings mean no filter. */
export type AuditFilters = { user: string; action: string; from: string; to: string; path: string; outcome: '' | AuditOutcome };

export const NoAuditFilters: AuditFilters = { user: '', action: '', from: '', to: '', path: '', outcome: '' };

function filterQuery(filters: AuditFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return query;
}

/** GET /api/audit: one page, newest first; `cursor` is the previous page's `next`. */
export function listAudit(filters: AuditFilters, cursor: string | null, signal?: AbortSignal): Promise<AuditPage> {
  const query = filterQuery(filters);
  query.set('limit', '200');
  if (cursor) query.set('cursor', cursor);
  return requestJson<AuditPage>(`${AuditPaths.list}?${query}`, { signal });
}

/** The export's address: a plain link, authenticated by the session cookie as downloads are. */
export function auditExportUrl(filters: AuditFilters, format: AuditExportFormat): string {
  const query = filterQuery(filters);
  query.set('format', format);
  return apiUrl(`${AuditPaths.export}?${query}`);
}

export function fetchAuditSettings(signal?: AbortSignal): Promise<AuditSettings> {
  return requestJson<AuditSettings>(AuditPaths.settings, { signal });
}

export function saveAuditSettings(settings: AuditSettings): Promise<AuditSettings> {
  return requestJson<AuditSettings>(AuditPaths.settings, { method: 'PUT', body: settings });
}
