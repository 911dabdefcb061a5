/** The audit log's schema-free constants, importable by the web app without the schema library. */

/** Admin-only audit log routes. */
export const AuditPaths = {
  /** GET: a page of entries, newest first (see AuditQuery). */
  list: '/api/audit',
  /** GET `?format=csv|ndjson` with the same filters: every matching entry, streamed. */
  export: '/api/audit/export',
  /** GET and PUT: retention and the bound on stored entries. */
  settings: '/api/audit/settings',
} as const;

/** What an entry records. File actions name the path as the actor saw it in their scope. */
export const AuditActions = [
  'auth.login',
  'auth.logout',
  'file.upload',
  'file.mkdir',
  'file.delete',
  'file.move',
  'file.rename',
  'file.copy',
  'share.create',
  'share.delete',
  'share.open',
  'share.download',
  'settings.update',
  'audit.settings',
  'user.create',
  'user.update',
  'user.delete',
  'command.run',
  'trash.restore',
  'twofactor.enrol',
  'twofactor.disable',
  'twofactor.reset',
  'token.create',
  'token.revoke',
] as const;
export type AuditAction = (typeof AuditActions)[number];

/** ok: done; denied: refused for want of credentials or rights (401, 403, 429); failed: anything else. */
export const AuditOutcomes = ['ok', 'denied', 'failed'] as const;
export type AuditOutcome = (typeof AuditOutcomes)[number];

/** The actor name of visitors of public share links. */
export const AnonymousActor = 'anonymous';

export const AuditExportFormats = ['csv', 'ndjson'] as const;
export type AuditExportFormat = (typeof AuditExportFormats)[number];

/** The CSV columns of an export, in order. */
export const AuditCsvColumns = ['time', 'user_id', 'username', 'client', 'action', 'path', 'destination', 'outcome', 'status', 'details'] as const;
