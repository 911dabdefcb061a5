import { describe, expect, it } from 'vitest';
import { evaluatePreconditions, parseRange, rangeFor } from './conditional.js';

const validators = { etag: '"abc"', mtimeMs: Date.parse('2025-01-02T03:04:05.678Z') };

describe('parseRange', () => {
  it('reads first-last, open-ended and suffix ranges, clamped to the file', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 0 }] });
    expect(parseRange('bytes=5-', 10)).toEqual({ kind: 'partial', ranges: [{ start: 5, end: 9 }] });
    expect(parseRange('bytes=-20', 10)).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 9 }] });
    expect(parseRange('BYTES = 2-3 , 7-100', 10)).toEqual({ kind: 'partial', ranges: [{ start: 2, end: 3 }, { start: 7, end: 9 }] });
  });

  it('is unsatisfiable only when no well-formed range overlaps the file', () => {
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=10-12, 3-4', 10)).toEqual({ kind: 'partial', ranges: [{ start: 3, end: 4 }] });
  });

  it('ignores malformed, foreign-unit and abusive headers (whole file instead)', () => {
    for (const header of ['bytes=', 'bytes=a-b', 'bytes=4-3', 'bytes=1x-2', 'bytes=0-1, 4-3', 'pages=1-2', 'bytes=1-2-3', 'bytes=99999999999999999999-']) {
      expect(parseRange(header, 10), header).toEqual({ kind: 'full' });
    }
    // Overlapping ranges that add up to more than the file, and very many ranges.
    expect(parseRange('bytes=0-9,0-9', 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=' + Array.from({ length: 65 }, (_, index) => `${index}-${index}`).join(','), 1000)).toEqual({ kind: 'full' });
  });

  it('applies only to GET and HEAD, and only while If-Range matches', () => {
    expect(rangeFor('GET', { range: 'bytes=0-1', 'if-range': '"abc"' }, 10, validators).kind).toBe('partial');
    expect(rangeFor('GET', { range: 'bytes=0-1', 'if-range': 'W/"abc"' }, 10, validators).kind).toBe('full');
    expect(rangeFor('GET', { range: 'bytes=0-1', 'if-range': 'Thu, 02 Jan 2025 03:04:05 GMT' }, 10, validators).kind).toBe('partial');
    expect(rangeFor('GET', { range: 'bytes=0-1', 'if-range': 'Thu, 02 Jan 2025 03:04:06 GMT' }, 10, validators).kind).toBe('full');
    expect(rangeFor('POST', { range: 'bytes=0-1' }, 10, validators).kind).toBe('full');
  });
});

describe('evaluatePreconditions', () => {
  it('follows the RFC 9110 order', () => {
    expect(evaluatePreconditions({ 'if-match': '"nope"', 'if-none-match': '"abc"' }, validators)).toBe(412);
    expect(evaluatePreconditions({ 'if-match': 'W/"abc"' }, validators)).toBe(412);
    expect(evaluatePreconditions({ 'if-match': '*' }, validators)).toBeUndefined();
    expect(evaluatePreconditions({ 'if-unmodified-since': 'Wed, 01 Jan 2025 00:00:00 GMT' }, validators)).toBe(412);
    expect(evaluatePreconditions({ 'if-none-match': '*' }, validators)).toBe(304);
    expect(evaluatePreconditions({ 'if-none-match': 'W/"abc"' }, validators)).toBe(304);
    expect(evaluatePreconditions({ 'if-modified-since': 'not a date' }, validators)).toBeUndefined();
    expect(evaluatePreconditions({ 'if-modified-since': 'Thu, 02 Jan 2025 03:04:05 GMT' }, validators)).toBe(304);
  });

  it('answers 304 to a matching If-None-Match whatever If-Modified-Since and Cache-Control say', () => {
    const old = 'Wed, 01 Jan 2025 00:00:00 GMT';
    expect(evaluatePreconditions({ 'if-none-match': '"abc"', 'if-modified-since': old }, validators)).toBe(304);
    expect(evaluatePreconditions({ 'if-none-match': '"x", W/"abc"' }, validators)).toBe(304);
    expect(evaluatePreconditions({ 'if-none-match': '"abc"', 'cache-control': 'no-cache' }, validators)).toBe(304);
    // A tag list that does not match wins over a date that would.
    expect(evaluatePreconditions({ 'if-none-match': '"other"', 'if-modified-since': 'Thu, 02 Jan 2025 03:04:05 GMT' }, validators)).toBeUndefined();
    expect(evaluatePreconditions({ 'if-modified-since': old }, validators)).toBeUndefined();
    expect(evaluatePreconditions({}, validators)).toBeUndefined();
  });
});
