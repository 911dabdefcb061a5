import { TusContentType } from '@burrow/protocol';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../errors.js';

/** Largest declared length accepted by default: 1 TiB. */
export const DEFAULT_MAX_UPLOAD_LENGTH = 2 ** 40;

type HeaderValue = string | string[] | undefined;

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

/**
 * `Upload-Length`: a non-negative decimal integer. Missing, signed, fractional or otherwise
 * malformed values are 400; well-formed numbers beyond `max` (or beyond what a double holds
 * exactly) are 413, so a client learns the size itself is the problem.
 */
export function parseUploadLength(value: HeaderValue, max: number): number {
  const text = single(value)?.trim();
  if (text === undefined || text === '') throw badRequest('missing Upload-Length');
  if (!/^\d+$/.test(text)) throw badRequest('invalid Upload-Length');
  const length = Number(text);
  if (!Number.isSafeInteger(length) || length > max) throw payloadTooLarge();
  return length;
}

/**
 * Stored lengths of uploads whose size was not given at creation: `Upload-Defer-Length: 1` (tus
 * 1.0: a later PATCH carries `Upload-Length`), or no length header at all, as filebrowser 2.31's
 * front end creates its uploads (it then only sends the bytes, never the total).
 */
export const DEFERRED_LENGTH = -1;
export const UNDECLARED_LENGTH = -2;

export const isLengthKnown = (length: number): boolean => length >= 0;

/**
 * The length of a creating POST: `Upload-Length` as above, `DEFERRED_LENGTH` for
 * `Upload-Defer-Length: 1`, `UNDECLARED_LENGTH` when neither header is sent. Any other defer
 * value, or both headers at once (tus 1.0 forbids it), is 400.
 */
export function parseCreationLength(length: HeaderValue, deferLength: HeaderValue, max: number): number {
  if (deferLength !== undefined) {
    if (single(deferLength)?.trim() !== '1') throw badRequest('invalid Upload-Defer-Length');
    if (length !== undefined) throw badRequest('both Upload-Length and Upload-Defer-Length');
    return DEFERRED_LENGTH;
  }
  return length === undefined ? UNDECLARED_LENGTH : parseUploadLength(length, max);
}

/** `Upload-Offset`: a non-negative decimal integer; anything else is 400. */
export function parseUploadOffset(value: HeaderValue): number {
  const text = single(value)?.trim();
  if (text === undefined || text === '') throw badRequest('missing Upload-Offset');
  if (!/^\d+$/.test(text)) throw badRequest('invalid Upload-Offset');
  const offset = Number(text);
  if (!Number.isSafeInteger(offset)) throw badRequest('invalid Upload-Offset');
  return offset;
}

/** PATCH bodies must be `application/offset+octet-stream` (parameters tolerated); else 415. */
export function checkPatchContentType(value: HeaderValue): void {
  const type = single(value)?.split(';')[0]?.trim().toLowerCase();
  if (type !== TusContentType) throw unsupportedMediaType();
}

/** `Content-Length` when present and valid, else undefined (chunked bodies). */
export function parseContentLength(value: HeaderValue): number | undefined {
  const text = single(value)?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const length = Number(text);
  return Number.isSafeInteger(length) ? length : undefined;
}

/** `?override=true` replaces an existing file; every other value (or none) does not. */
export function parseOverride(query: unknown): boolean {
  const value = (query as Record<string, unknown> | undefined)?.override;
  return (Array.isArray(value) ? value[value.length - 1] : value) === 'true';
}
