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
