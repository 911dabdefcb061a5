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
