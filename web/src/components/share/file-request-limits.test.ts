import { describe, expect, it } from 'vitest';
import { emptyFileRequestForm, parseCount, parseMegabytes, readFileRequestForm } from './file-request-limits';

describe('file request limits', () => {
  it('reads MiB, with a decimal point or comma, and empty as no limit', () => {
    expect(parseMegabytes('')).toBe(0);
    expect(parseMegabytes('5')).toBe(5 * 1024 * 1024);
    expect(parseMegabytes('1.5')).toBe(1.5 * 1024 * 1024);
    expect(parseMegabytes('0,25')).toBe(256 * 1024);
    expect(parseMegabytes('-1')).toBeUndefined();
    expect(parseMegabytes('1e3')).toBeUndefined();
    expect(parseMegabytes('9'.repeat(20))).toBeUndefined();
  });

  it('reads whole file counts only', () => {
    expect(parseCount('')).toBe(0);
    expect(parseCount('12')).toBe(12);
    expect(parseCount('1.5')).toBeUndefined();
    expect(parseCount('-3')).toBeUndefined();
  });

  it('names the first invalid field', () => {
    expect(readFileRequestForm({ ...emptyFileRequestForm, uploadOnly: true, maxFiles: 'x' })).toEqual({ invalid: 'maxFiles' });
    expect(readFileRequestForm({ ...emptyFileRequestForm, uploadOnly: true, note: ' hi ', maxTotalSize: '2' })).toEqual({
      limits: { note: 'hi', maxFileSize: 0, maxTotalSize: 2 * 1024 * 1024, maxFiles: 0 },
    });
  });
});
