import { Type, type Static } from '@sinclair/typebox';

/** A share link as the API returns it: never the password hash or the token. */
export const Share = Type.Object({
  hash: Type.String(),
  path: Type.String(),
  userID: Type.Integer(),
  expire: Type.Integer(),
  hasPassword: Type.Optional(Type.Boolean()),
  username: Type.Optional(Type.String()),
});
export type Share = Static<typeof Share>;

export const ShareUnits = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof ShareUnits)[number];

export const CreateShareRequest = Type.Object({
  password: Type.Optional(Type.String()),
  expires: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  unit: Type.Optional(Type.String()),
});
export type CreateShareRequest = Static<typeof CreateShareRequest>;

export const MaxShareDuration = 2147483647;
