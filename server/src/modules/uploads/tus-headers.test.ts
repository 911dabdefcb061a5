import { describe, expect, it } from 'vitest';
import { tusLocation } from '@burrow/protocol';
import { AppError } from '../../errors.js';
import { checkPatchContentType, DEFERRED_LENGTH, parseContentLength, parseCreationLength, parseOverride, parseUploadLength, parseUploadOffset, UNDECLARED_LENGTH } from './tus-headers.js';

const statusOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as AppError).status;
  }
  return 0;
};

describe('tus headers', () => {
  it('parses Upload-Length with 400 for malformed and 413 beyond the maximum', () => {
    expect(parseUploadLength('0', 10)).toBe(0);
    expect(parseUploadLength(' 10 ', 10)).toBe(10);
    for (const bad of [undefined, '', ' ', '-1', '1.5', 'ten', '1e2', '0x1', ['1', '2']]) expect(statusOf(() => parseUploadLength(bad, 10))).toBe(400);
    expect(statusOf(() => parseUploadLength('11', 10))).toBe(413);
    expect(statusOf(() => parseUploadLength('123456789012345678901234567890', Number.MAX_SAFE_INTEGER))).toBe(413);
  });

  it('parses Upload-Offset with 400 for anything but a whole number', () => {
    expect(parseUploadOffset('0')).toBe(0);
    expect(parseUploadOffset('1048576')).toBe(1048576);
    for (const bad of [undefined, '', '-3', '3.0', 'abc', '99999999999999999999']) expect(statusOf(() => parseUploadOffset(bad))).toBe(400);
  });

  it('accepts only application/offset+octet-stream bodies (415 otherwise)', () => {
    expect(statusOf(() => checkPatchContentType('application/offset+octet-stream'))).toBe(0);
    expect(statusOf(() => checkPatchContentType('Application/Offset+Octet-Stream; charset=binary'))).toBe(0);
    for (const bad of [undefined, '', 'application/octet-stream', 'text/plain']) expect(statusOf(() => checkPatchContentType(bad))).toBe(415);
  });

  it('reads Content-Length and override', () => {
    expect(parseContentLength('42')).toBe(42);
    expect(parseContentLength(undefined)).toBeUndefined();
    expect(parseContentLength('x')).toBeUndefined();
    expect(parseOverride({ override: 'true' })).toBe(true);
    expect(parseOverride({ override: 'false' })).toBe(false);
    expect(parseOverride({ override: '1' })).toBe(false);
    expect(parseOverride({})).toBe(false);
    expect(parseOverride({ override: ['false', 'true'] })).toBe(true);
  });

  it('builds Locations with every segment encoded and the base URL in front', () => {
    expect(tusLocation('', '/a b/c#d?.txt')).toBe('/api/tus/a%20b/c%23d%3F.txt');
    expect(tusLocation('/base', '/x')).toBe('/base/api/tus/x');
    expect(tusLocation('', '/')).toBe('/api/tus/');
  });
});

describe('creation lengths', () => {
  it('reads Upload-Length, Upload-Defer-Length: 1, or neither (deferred, as filebrowser 2.31 creates)', () => {
    expect(parseCreationLength('5', undefined, 10)).toBe(5);
    expect(parseCreationLength(undefined, '1', 10)).toBe(DEFERRED_LENGTH);
    expect(parseCreationLength(undefined, undefined, 10)).toBe(UNDECLARED_LENGTH);
    expect(statusOf(() => parseCreationLength(undefined, '0', 10))).toBe(400);
    expect(statusOf(() => parseCreationLength(undefined, 'yes', 10))).toBe(400);
    expect(statusOf(() => parseCreationLength('5', '1', 10))).toBe(400);
    expect(statusOf(() => parseCreationLength('', undefined, 10))).toBe(400);
    expect(statusOf(() => parseCreationLength('11', undefined, 10))).toBe(413);
  });
});
