import { Type, type Static } from '@sinclair/typebox';

/**
 * Global trash settings. With the trash on, deletes move items to their owner's trash; off, a
 * delete removes at once. `retentionDays` 0 keeps items until removed by hand; `maxSize` 0 sets
 * no limit, otherwise the oldest items of a user's trash go first once it holds more bytes.
 */
export const TrashSettings = Type.Object({
  enabled: Type.Boolean(),
  retentionDays: Type.Integer({ minimum: 0, maximum: 36500 }),
  maxSize: Type.Integer({ minimum: 0 }),
});
export type TrashSettings = Static<typeof TrashSettings>;

export const DefaultTrash: TrashSettings = { enabled: true, retentionDays: 30, maxSize: 0 };

/** One deleted item in `GET /api/trash`. */
export const TrashItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Where it was, in the owner's scope at the time of deletion. */
  path: Type.String(),
  isDir: Type.Boolean(),
  /** Bytes, folders counted with everything inside. */
  size: Type.Number(),
  /** RFC 3339 time of deletion. */
  deleted: Type.String(),
  /** Name of the user who deleted it. */
  deletedBy: Type.String(),
  extension: Type.String(),
});
export type TrashItem = Static<typeof TrashItem>;

export const TrashSortFields = ['name', 'deleted', 'size'] as const;
export type TrashSortField = (typeof TrashSortFields)[number];

/** `GET /api/trash?sort=&asc=&offset=&limit=`: without `limit` the whole list. */
export const TrashQuery = Type.Object({
  sort: Type.Optional(Type.Union(TrashSortFields.map((field) => Type.Literal(field)))),
  asc: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
});
export type TrashQuery = Static<typeof TrashQuery>;

export const TrashList = Type.Object({
  items: Type.Array(TrashItem),
  /** Items in the whole trash, whatever page was asked for. */
  total: Type.Integer(),
  /** Bytes in the whole trash. */
  totalSize: Type.Number(),
});
export type TrashList = Static<typeof TrashList>;

/**
 * `POST /api/trash/{id}/restore`. Without `destination` the item goes back where it was; with
 * one (a folder in the caller's scope) it goes into that folder under its own name. A taken name
 * answers 409 unless `override` (the item there goes to the trash) or `rename` (`name(N).ext`).
 */
export const RestoreRequest = Type.Object({
  destination: Type.Optional(Type.String({ minLength: 1 })),
  override: Type.Optional(Type.Boolean()),
  rename: Type.Optional(Type.Boolean()),
});
export type RestoreRequest = Static<typeof RestoreRequest>;

/** What a restore answers: where the item now is. */
export const RestoreResult = Type.Object({ path: Type.String() });
export type RestoreResult = Static<typeof RestoreResult>;
