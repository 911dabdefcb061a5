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
  /** True for an upload-only link (a file request); the fields below come with it. */
  uploadOnly: Type.Optional(Type.Boolean()),
  /** Note shown to uploaders. */
  note: Type.Optional(Type.String()),
  /** Limits in bytes and files; 0 means none. */
  maxFileSize: Type.Optional(Type.Integer()),
  maxTotalSize: Type.Optional(Type.Integer()),
  maxFiles: Type.Optional(Type.Integer()),
  /** Files received through the link so far, their bytes, and when the last one came (Unix ms, 0 if none). */
  receivedFiles: Type.Optional(Type.Integer()),
  receivedBytes: Type.Optional(Type.Integer()),
  lastReceivedAt: Type.Optional(Type.Integer()),
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
  /**
   * Makes an upload-only link (a file request) for a folder: visitors can only add files to it,
   * never list or read anything. Needs the `create` permission as well as `share`.
   */
  uploadOnly: Type.Optional(Type.Boolean()),
  note: Type.Optional(Type.String()),
  /** Largest file in bytes; 0 or absent means no limit. */
  maxFileSize: Type.Optional(Type.Integer()),
  /** Largest total of all files in bytes; 0 or absent means no limit. */
  maxTotalSize: Type.Optional(Type.Integer()),
  /** Most files the link accepts; 0 or absent means no limit. */
  maxFiles: Type.Optional(Type.Integer()),
});
export type CreateShareRequest = Static<typeof CreateShareRequest>;

/** Longest note on a file request (characters). */
export const MaxFileRequestNoteLength = 2000;

/**
 * `GET /api/public/upload/{hash}`: what an uploader is told about a file request. `remaining*`
 * are absent when the matching limit is not set.
 */
export const FileRequestInfo = Type.Object({
  name: Type.String(),
  note: Type.String(),
  maxFileSize: Type.Integer(),
  maxTotalSize: Type.Integer(),
  maxFiles: Type.Integer(),
  remainingFiles: Type.Optional(Type.Integer()),
  remainingBytes: Type.Optional(Type.Integer()),
});
export type FileRequestInfo = Static<typeof FileRequestInfo>;

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
 *
 * Upload-only links (file requests) answer 404 on all of the above, as a missing link does, and
 * are used through `upload` instead:
 *
 * - `GET /api/public/upload/{hash}`: the request's note and limits (`FileRequestInfo`).
 * - `POST /api/public/upload/{hash}`: tus creation; `Upload-Length` is required and the file name
 *   comes from `Upload-Metadata` (`filename`). Answers 201 with `Location: .../{hash}/{id}`.
 * - `HEAD|PATCH /api/public/upload/{hash}/{id}`: tus offset and append.
 */
export const PublicSharePaths = {
  share: '/api/public/share',
  download: '/api/public/dl',
  preview: '/api/public/preview',
  subtitle: '/api/public/subtitle',
  upload: '/api/public/upload',
} as const;

/** The query parameter carrying a protected link's token on download-like requests. */
export const ShareTokenParam = 'token';
