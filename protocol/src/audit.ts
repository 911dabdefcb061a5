import { Type, type Static } from '@sinclair/typebox';
import { AuditExportFormats, AuditOutcomes } from './audit-constants.js';

export * from './audit-constants.js';

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
  /** The HTTP status of the answer; 0 for file changes and commands, recorded as they happen rather than from an answer. */
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
