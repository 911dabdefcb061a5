import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

/*
 * Conditional requests and byte ranges (RFC 9110 sections 13 and 14) for anything sent with
 * validators: files, previews, WebDAV GET.
 *
 * If-None-Match and If-Modified-Since (the 304 decision) go through the `fresh` package. Range
 * parsing stays here instead of using `range-parser`: that package answers 416 where RFC 9110
 * says an invalid range set must be ignored (`bytes=4-3`), accepts digits followed by junk
 * (`bytes=1x-2` through parseInt), and has no bound on the number of ranges or on overlapping
 * ranges that add up to more than the file; conditional.test.ts pins each of these.
 */

/** Validators of one file version, as sent in ETag and Last-Modified. */
export type Validators = {
  /** Strong entity tag, quotes included. */
  etag: string;
  /** Modification time in milliseconds. */
  mtimeMs: number;
};

export type ByteRange = { start: number; end: number };

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'unsatisfiable' }
  | { kind: 'partial'; ranges: ByteRange[] };

/** Most ranges honoured in one request; more falls back to the whole file (cheap to serve). */
const MAX_RANGES = 64;

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** HTTP dates have one-second resolution: compare on whole seconds. */
function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function parseHttpDate(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** Splits an entity-tag list; `*` is returned as is. Weak tags keep their `W/` prefix. */
function parseEtagList(value: string): string[] {
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

function weakMatch(a: string, b: string): boolean {
  return a.replace(/^W\//, '') === b.replace(/^W\//, '');
}

/**
 * Evaluates the preconditions of RFC 9110 section 13.2.2 for a GET or HEAD of a file.
 * Returns 412 or 304 when the request must stop there, otherwise undefined.
 */
export function evaluatePreconditions(headers: IncomingHttpHeaders, validators: Validators): 304 | 412 | undefined {
  const ifMatch = headerValue(headers, 'if-match');
  if (ifMatch !== undefined) {
    const tags = parseEtagList(ifMatch);
    // If-Match uses the strong comparison: a weak tag never matches.
    if (!tags.includes('*') && !tags.some((tag) => !tag.startsWith('W/') && tag === validators.etag)) return 412;
  } else {
    const since = parseHttpDate(headerValue(headers, 'if-unmodified-since'));
    if (since !== undefined && wholeSeconds(validators.mtimeMs) > wholeSeconds(since)) return 412;
  }
  // RFC 9110 section 13.2.2: If-Modified-Since is ignored when If-None-Match is present. The
  // request's Cache-Control is not handed on: `no-cache` asks caches to revalidate, and a 304
  // from here is that revalidation.
  const ifNoneMatch = headerValue(headers, 'if-none-match');
  const ifModifiedSince = headerValue(headers, 'if-modified-since');
  if (ifNoneMatch === undefined && ifModifiedSince === undefined) return undefined;
  const conditions = ifNoneMatch !== undefined ? { 'if-none-match': ifNoneMatch } : { 'if-modified-since': ifModifiedSince };
  return fresh(conditions, { etag: validators.etag, 'last-modified': new Date(validators.mtimeMs).toUTCString() }) ? 304 : undefined;
}

/**
 * If-Range: the Range header only applies while the client's copy is current. An entity tag
 * must match strongly; a date must equal Last-Modified exactly.
 */
function ifRangeHolds(value: string | undefined, validators: Validators): boolean {
  if (value === undefined) return true;
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) return trimmed === validators.etag;
  const date = parseHttpDate(trimmed);
  return date !== undefined && wholeSeconds(date) === wholeSeconds(validators.mtimeMs);
}

/**
 * Parses a `bytes=` Range header against a representation of `size` bytes. A header that is
 * malformed, uses another unit or asks for something abusive is ignored (full response), as
 * RFC 9110 allows; a well-formed set of which nothing overlaps the file is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return { kind: 'full' };
  const specs = match[1]!.split(',').map((spec) => spec.trim());
  if (specs.length > MAX_RANGES) return { kind: 'full' };
  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    if (spec === '') continue;
    const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) return { kind: 'full' };
    if (parts[1] === '') {
      const suffix = Number(parts[2]);
      if (!Number.isSafeInteger(suffix)) return { kind: 'full' };
      if (suffix === 0 || size === 0) continue;
      ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(parts[1]);
    const end = parts[2] === '' ? Number.MAX_SAFE_INTEGER : Number(parts[2]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return { kind: 'full' };
    if (start >= size) continue;
    ranges.push({ start, end: Math.min(end, size - 1) });
  }
  if (ranges.length === 0) return { kind: 'unsatisfiable' };
  // Overlapping ranges that add up to more than the file are a known amplification trick.
  const total = ranges.reduce((sum, range) => sum + range.end - range.start + 1, 0);
  if (ranges.length > 1 && total > size) return { kind: 'full' };
  return { kind: 'partial', ranges };
}

/** The range decision for a request, honouring If-Range. Only GET asks for ranges. */
export function rangeFor(method: string, headers: IncomingHttpHeaders, size: number, validators: Validators): RangeDecision {
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'full' };
  const range = headerValue(headers, 'range');
  if (range === undefined || size === 0) return { kind: 'full' };
  if (!ifRangeHolds(headerValue(headers, 'if-range'), validators)) return { kind: 'full' };
  return parseRange(range, size);
}
