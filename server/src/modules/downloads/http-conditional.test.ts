import { describe, expect, it } from 'vitest';
import { evaluatePreconditions, parseRange, rangeFor } from './http-conditional.js';
import { archiveEntryName } from './archive-entries.js';
import { asciiFallbackName, encodeRfc5987 } from './content-disposition.js';
import { parseArchiveFormat, parseFilesParam, requestVirtualPath } from './request-input.js';

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
    for (const header of ['bytes=', 'bytes=a-b', 'bytes=4-3', 'pages=1-2', 'bytes=1-2-3', 'bytes=99999999999999999999-']) {
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
});

describe('names and query input', () => {
  it('encodes disposition names per RFC 5987 with a safe ASCII fallback', () => {
    expect(encodeRfc5987("a b'(c)*.txt")).toBe('a%20b%27%28c%29%2A.txt');
    expect(encodeRfc5987('naïve.txt')).toBe('na%C3%AFve.txt');
    expect(asciiFallbackName('a"b\\c/d\r\n%.txt')).toBe('a_b_c_d___.txt');
    expect(asciiFallbackName('')).toBe('download');
  });

  it('makes archive entry names that cannot climb out', () => {
    expect(archiveEntryName('a/b.txt')).toBe('a/b.txt');
    expect(archiveEntryName('..\\..\\x')).toBe('.._.._x');
    expect(archiveEntryName('a/../b')).toBeUndefined();
    expect(archiveEntryName('/abs')).toBeUndefined();
  });

  it('decodes request paths and files= once more, and knows every archive format', () => {
    expect(requestVirtualPath('/api/raw/a%20b/c%2Bd.txt?x=1', '/api/raw')).toBe('/a b/c+d.txt');
    expect(requestVirtualPath('/api/raw', '/api/raw')).toBe('/');
    expect(() => requestVirtualPath('/api/raw/%E0%A4%A', '/api/raw')).toThrow();
    expect(parseFilesParam('/a%2Bb+c,,/d%2520e')).toEqual(['/a+b+c', '/d%20e']);
    expect(parseFilesParam(undefined)).toEqual([]);
    for (const algo of [undefined, '', 'true', 'zip']) expect(parseArchiveFormat(algo)).toBe('zip');
    for (const algo of ['tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr', 'tarzst']) expect(parseArchiveFormat(algo)).toBe(algo);
    for (const algo of ['rar', '7z', 'constructor', '__proto__']) expect(() => parseArchiveFormat(algo)).toThrow(/unsupported archive format/);
  });
});
