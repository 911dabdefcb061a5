import { Type, type Static } from '@sinclair/typebox';

/** A share link as the API returns it: never the password hash or the token. */
export const Share = Type.Object({
  hash: Type.String(),
  path: Type.String(),
  userID: Type.Integer(),
  /** Unix seconds; 0 means permanent. */
  expire: Type.Integer(),
  hasPassword: Type.Optional(Type.Boolean()),
  /** Filled in for admins in `GET /api/shares`. */
  username: Type.Optional(Type.String()),
});
export type Share = Static<typeof Share>;

export const ShareList = Type.Array(Share);
export type ShareList = Static<typeof ShareList>;

export const ShareUnits = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof ShareUnits)[number];

/** Seconds per unit; any other unit name means hours. */
export const ShareUnitSeconds: Record<ShareUnit, number> = {
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 86400,
};

/**
 * Body of `POST /api/share/{path}`. `expires` is a whole number 0…MaxShareDuration (as a string
 * or a number); empty or 0 makes the link permanent. An empty password means no password.
 */
export const CreateShareRequest = Type.Object({
  password: Type.Optional(Type.String()),
  expires: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  unit: Type.Optional(Type.String()),
});
export type CreateShareRequest = Static<typeof CreateShareRequest>;

export const MaxShareDuration = 2147483647;

/** Longest share password accepted (bytes). */
export const MaxSharePasswordBytes = 1024;

/**
 * Public (no login) endpoints for shared items. `share` and `dl` are filebrowser's; `preview`
 * and `subtitle` are Burrow's own, placed under `/api/public/` beside them so that they never
 * collide with a path a filebrowser client uses:
 *
 * - `GET /api/public/share/{hash}[/sub]`: listing or file JSON (`X-SHARE-PASSWORD` header).
 * - `GET /api/public/dl/{hash}[/sub]?token=&inline=&algo=&files=`: file, or archive of a folder.
 * - `GET /api/public/preview/{thumb|big}/{hash}[/sub]?token=`: image preview of a shared image.
 * - `GET /api/public/subtitle/{hash}[/sub]?token=`: a shared subtitle as WebVTT.
 *
 * For a shared file the sub-path is ignored: the file itself is served. For protected links every
 * endpoint needs `?token=` (from the listing reply) or the `X-SHARE-PASSWORD` header, else 401.
 */
export const PublicSharePaths = {
  share: '/api/public/share',
  download: '/api/public/dl',
  preview: '/api/public/preview',
  subtitle: '/api/public/subtitle',
} as const;

/** The query parameter carrying a protected link's token on download-like requests. */
export const ShareTokenParam = 'token';
