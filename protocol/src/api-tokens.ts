import { Type, type Static } from '@sinclair/typebox';
import { Permissions } from './users.js';
import { ApiTokenPresets } from './api-token-constants.js';

export * from './api-token-constants.js';

export const ApiToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  perm: Permissions,
  /** RFC 3339 times; `expires` and `lastUsed` are null for never. */
  created: Type.String(),
  expires: Type.Union([Type.String(), Type.Null()]),
  lastUsed: Type.Union([Type.String(), Type.Null()]),
});
export type ApiToken = Static<typeof ApiToken>;

/**
 * `POST /api/tokens`: `preset` readOnly (no create, rename, modify, delete, share, execute or
 * admin), uploadOnly (create only) or custom (`perm`, never more than the owner has);
 * `expiresInDays` left out or null for a token that never expires.
 */
export const ApiTokenCreateRequest = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  preset: Type.Union(ApiTokenPresets.map((preset) => Type.Literal(preset))),
  perm: Type.Optional(Type.Partial(Permissions)),
  expiresInDays: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()])),
});
export type ApiTokenCreateRequest = Static<typeof ApiTokenCreateRequest>;

/** The new token with its secret, shown this once. */
export const ApiTokenCreated = Type.Intersect([ApiToken, Type.Object({ token: Type.String() })]);
export type ApiTokenCreated = Static<typeof ApiTokenCreated>;
