import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the route schemas: the server declares every route's params, query, body and
 * responses with these and the schemas beside them, and the OpenAPI document is generated from
 * the same declarations.
 *
 * A response keyed by media type (`{ content: { 'text/plain': { schema } } }`) documents a body
 * the server writes itself (status lines, files, streams): the server never serializes it. A bare
 * schema is a JSON body, serialized through that schema, so it must list every field sent.
 */

/** Where the OpenAPI document is served. */
export const OpenApiPath = '/api/openapi.json';

/** The plain-text status body every error (and many successes) carries: `403 Forbidden\n`. */
export const StatusLine = Type.String({
  description: 'A status line, "<code> <reason>" and a newline; a 400 adds its reason in parentheses: "400 Bad Request (malformed JSON)".',
});

export type MediaResponse = { description: string; content: Record<string, { schema: TSchema }> };

/** A response body the handler writes itself, in one or more media types. */
export function mediaResponse(description: string, mediaTypes: readonly string[], schema: TSchema = Type.String()): MediaResponse {
  return { description, content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema }])) };
}

/** A plain-text body (by default the status line). */
export function textResponse(description: string, schema: TSchema = StatusLine): MediaResponse {
  return mediaResponse(description, ['text/plain'], schema);
}

/** File contents, archives and images: bytes in the given media types. */
export function binaryResponse(description: string, mediaTypes: readonly string[] = ['application/octet-stream']): MediaResponse {
  return mediaResponse(description, mediaTypes, Type.String({ format: 'binary' }));
}

/** No body at all (204, 304, and the 202 that answers a user without the download permission). */
export function emptyResponse(description: string) {
  return Type.Null({ description });
}

/** What every route may answer on failure: a plain-text status line, never JSON. */
export const ErrorResponses = {
  '4xx': textResponse('The request was refused; the status line says why (see the README for each code).'),
  '5xx': textResponse('The server failed; details are in its log only.'),
} as const;

/** The path after a route prefix: each segment percent-encoded, as the web app and filebrowser send it. */
export const WildcardParams = Type.Object({
  '*': Type.String({ description: 'The path inside the caller\'s scope (or inside the share), without its leading slash.' }),
});

/** The query of a download-like request: `inline=true` asks for `Content-Disposition: inline`. */
export const InlineQuery = Type.Object({
  inline: Type.Optional(Type.String({ description: '"true" to display rather than download' })),
});

/** The query of `/api/raw` and `/api/public/dl`: a file, or an archive of a folder or a selection in it. */
export const DownloadQuery = Type.Object({
  inline: Type.Optional(Type.String({ description: '"true" to display rather than download (files only)' })),
  algo: Type.Optional(Type.String({ description: 'Archive format of a folder: zip, tar, targz, tarbz2, tarxz, tarlz4, tarsz, tarbr or tarzst' })),
  files: Type.Optional(Type.String({ description: 'Comma-separated names inside the folder to put in the archive' })),
  token: Type.Optional(Type.String({ description: 'The token of a protected share link (public downloads only)' })),
});

/** A request body read as bytes (file contents, tus chunks); documented, never parsed. */
export function binaryBody(description: string, mediaTypes: readonly string[] = ['application/octet-stream']) {
  return { description, content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: Type.String({ format: 'binary' }) }])) };
}

/** A JSON body the route reads itself (it may be absent or sent as text/plain); documented, never validated by the router. */
export function jsonBody(schema: TSchema, description: string) {
  return { description, content: { 'application/json': { schema }, 'text/plain': { schema } } };
}

/** `GET /health` and `/health/live`. */
export const HealthLive = Type.Object({ status: Type.Literal('OK') });

/** `GET /health/ready`: 200 when the database answers and the search index is complete, else 503. */
export const HealthReady = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  index: Type.Union([Type.Literal('ready'), Type.Literal('building'), Type.Literal('unavailable')]),
});

/** The body of a successful login or renewal: the JWT itself, as plain text. */
export const TokenText = Type.String({ description: 'A JWT; send it as X-Auth' });

/** A route's responses: the given successes plus the plain-text errors. */
export function responses<T extends Record<string, unknown>>(successes: T): T & typeof ErrorResponses {
  return { ...successes, ...ErrorResponses };
}

/** Tags that group the operations of the OpenAPI document. */
export const ApiTags = {
  auth: 'auth',
  users: 'users',
  settings: 'settings',
  resources: 'resources',
  downloads: 'downloads',
  uploads: 'uploads',
  shares: 'shares',
  publicShares: 'public shares',
  search: 'search',
  commands: 'commands',
  trash: 'trash',
  twoFactor: 'two-factor',
  apiTokens: 'api tokens',
  audit: 'audit',
  oidc: 'single sign-on',
  monitoring: 'monitoring',
  webApp: 'web app',
  webdav: 'webdav',
} as const;

/** `{id}` of a user: a decimal number. */
export const UserIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,10}$', description: 'The user id' }) });

/** `{id}` of a personal API token. */
export const ApiTokenIdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', description: 'The token id' }) });

/** `{id}` of a trash item (checked further by the trash). */
export const TrashIdParams = Type.Object({ id: Type.String({ description: 'The trash item id' }) });

/** Most items `GET /api/resources/{folder}?first=` may ask for. */
export const FirstItemsMax = 10_000;

/**
 * The query of `GET /api/resources`: `checksum=md5|sha1|sha256|sha512` adds that checksum of a
 * file; `first=N` answers a folder with only its first N items (see `Resource.partial`).
 */
export const ResourceQuery = Type.Object({
  checksum: Type.Optional(Type.String({ description: 'md5, sha1, sha256 or sha512' })),
  first: Type.Optional(
    Type.String({
      description: `A folder's first N items only (1 to ${FirstItemsMax}), in its listing order, with the counts of all of them and \`partial: true\` when some were left out: a big folder shows its first rows without waiting for the whole listing`,
    }),
  ),
});

/** The query of `POST /api/resources`: `override=true` replaces an existing file. */
export const OverrideQuery = Type.Object({
  override: Type.Optional(Type.String({ description: '"true" to replace what is there' })),
});

/** The query of `PATCH /api/resources`: copy or move (`rename`) to `destination`. */
export const PatchQuery = Type.Object({
  action: Type.Optional(Type.String({ description: 'copy or rename' })),
  destination: Type.Optional(Type.String({ description: 'The target path, percent-encoded (the web app encodes it twice)' })),
  override: Type.Optional(Type.String({ description: '"true" to replace what is there' })),
  rename: Type.Optional(Type.String({ description: '"true" to pick a free name "name(N).ext" instead of failing' })),
});

/** The query of `GET /api/search`. */
export const SearchQuery = Type.Object({
  query: Type.Optional(Type.String({ description: 'Words, "quoted phrases", type:image|audio|video|pdf, case:sensitive' })),
});

/** A file as it is (its own media type, ranges and validators honoured), or a folder as an archive. */
export const FileResponses = {
  200: binaryResponse('The file in its own media type, or an archive of a folder', ['*/*']),
  206: binaryResponse('The requested byte range(s) of the file', ['*/*']),
  304: emptyResponse('Not modified since the validators sent (If-None-Match, If-Modified-Since)'),
} as const;

/** The query of a preview or subtitle. */
export const PreviewParams = Type.Object({ size: Type.String({ description: 'thumb or big' }) });

/** `{hash}` of a file request (an upload-only share link). */
export const FileRequestParams = Type.Object({ hash: Type.String({ description: 'The link hash' }) });

/** `{hash}/{id}` of one upload through a file request. */
export const FileRequestUploadParams = Type.Object({
  hash: Type.String({ description: 'The link hash' }),
  id: Type.String({ description: 'The upload id, from the Location of its creation' }),
});

/** The query of a public share request: a protected link's token (else the X-SHARE-PASSWORD header). */
export const ShareTokenQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'The token from the listing of a protected link' })),
  inline: Type.Optional(Type.String({ description: '"true" to display rather than download' })),
});

/** The bytes a tus PATCH appends. */
export const TusChunkBody = binaryBody('The bytes to append at Upload-Offset', ['application/offset+octet-stream']);

/** `POST /api/oidc/logout`: where to send the browser to end the provider's session too (empty when none). */
export const OidcLogoutResult = Type.Object({ endSessionUrl: Type.String() });

/** The query of the single sign-on start: the app path to return to. */
export const OidcLoginQuery = Type.Object({ redirect: Type.Optional(Type.String({ description: 'The app path to open after signing in' })) });

/** A redirect (the Location header says where). */
export function redirectResponse(description: string) {
  return Type.Null({ description });
}
