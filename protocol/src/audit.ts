import { Type, type Static } from '@sinclair/typebox';

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

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  /** RFC 3339. */
  time: Type.String(),
  /** Null for anonymous visitors and for failed logins of unknown accounts. */
  userId: Type.Union([Type.Integer(), Type.Null()]),
  /** The actor's name; for a failed login, the name that was tried. */
  username: Type.String(),
  /** The client's address (through trusted proxies only). */
  client: Type.String(),
  action: Type.String(),
  /** Target path ('' when the action has none). */
  path: Type.String(),
  /** The second path of moves, renames and copies ('' otherwise). */
  destination: Type.String(),
  outcome: Type.Union(AuditOutcomes.map((outcome) => Type.Literal(outcome))),
  /** The HTTP status of the answer, or 0 where there was none (file events outside requests). */
  status: Type.Integer(),
  /** Small structured facts about the action; never secrets. */
  details: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntry = Static<typeof AuditEntry>;

/**
 * `GET /api/audit`: `from` and `to` are RFC 3339 times or dates (inclusive), `user` an exact user
 * name, `action` an action or a prefix ending in `.` (`file.`), `path` a text the path or
 * destination contains, `limit` 1 to 500 (100), `cursor` the `next` of the previous page.
 */
export const AuditQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 64 })),
  to: Type.Optional(Type.String({ maxLength: 64 })),
  user: Type.Optional(Type.String({ maxLength: 255 })),
  action: Type.Optional(Type.String({ maxLength: 64 })),
  path: Type.Optional(Type.String({ maxLength: 4096 })),
  outcome: Type.Optional(Type.Union(AuditOutcomes.map((outcome) => Type.Literal(outcome)))),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  cursor: Type.Optional(Type.String({ maxLength: 64 })),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditExportFormats = ['csv', 'ndjson'] as const;
export type AuditExportFormat = (typeof AuditExportFormats)[number];

export const AuditExportQuery = Type.Intersect([
  Type.Omit(AuditQuery, ['limit', 'cursor']),
  Type.Object({ format: Type.Union(AuditExportFormats.map((format) => Type.Literal(format))) }),
]);
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const AuditPage = Type.Object({
  items: Type.Array(AuditEntry),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type AuditPage = Static<typeof AuditPage>;

/** Entries older than `retentionDays` (0: kept forever) go, and the oldest beyond `maxEntries`. */
export const AuditSettings = Type.Object({
  retentionDays: Type.Integer({ minimum: 0, maximum: 36500 }),
  maxEntries: Type.Integer({ minimum: 1000, maximum: 100_000_000 }),
});
export type AuditSettings = Static<typeof AuditSettings>;

export const DefaultAuditSettings: AuditSettings = { retentionDays: 90, maxEntries: 1_000_000 };

/** The CSV columns of an export, in order. */
export const AuditCsvColumns = ['time', 'user_id', 'username', 'client', 'action', 'path', 'destination', 'outcome', 'status', 'details'] as const;
