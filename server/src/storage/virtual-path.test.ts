import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { baseName, cleanVirtualPath, decodePathComponent, isWithin, joinVirtual, parentOf } from './virtual-path.js';

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).status;
  }
}

describe('cleanVirtualPath', () => {
  const table: Array<[input: string, path: string, trailingSlash: boolean]> = [
    ['', '/', false],
    ['/', '/', false],
    ['//', '/', false],
    ['.', '/', false],
    ['/./', '/', false],
    ['a', '/a', false],
    ['/a/b', '/a/b', false],
    ['/a/b/', '/a/b', true],
    ['/a//b///c', '/a/b/c', false],
    ['/a/./b/.', '/a/b', false],
    ['/a/b/..', '/a', false],
    ['/a/b/../', '/a', true],
    ['/a/../../..', '/', false],
    ['/../../etc/passwd', '/etc/passwd', false],
    ['../secret', '/secret', false],
    ['/a/../..//b/./c/', '/b/c', true],
    ['/..', '/', false],
    ['/../', '/', false],
    ['/...', '/...', false],
    ['/..a/b..', '/..a/b..', false],
    ['/a b/ c ', '/a b/ c ', false],
    ['/\u00fcber/\u65e5\u672c', '/\u00fcber/\u65e5\u672c', false],
  ];
  it.each(table)('%j → %s (trailing slash %s)', (input, path, trailingSlash) => {
    expect(cleanVirtualPath(input)).toEqual({ path, trailingSlash });
  });

  it('keeps backslashes as ordinary name characters on POSIX', () => {
    if (process.platform === 'win32') return;
    // `\` is a legal name character here; it must never act as a separator, so `..\` cannot climb.
    expect(cleanVirtualPath('/a\\..\\..\\etc')).toEqual({ path: '/a\\..\\..\\etc', trailingSlash: false });
    expect(cleanVirtualPath('\\..\\secret')).toEqual({ path: '/\\..\\secret', trailingSlash: false });
    expect(cleanVirtualPath('/dir\\')).toEqual({ path: '/dir\\', trailingSlash: false });
  });

  it('refuses NUL bytes with 400', () => {
    expect(statusOf(() => cleanVirtualPath('/a\0b'))).toBe(400);
    expect(statusOf(() => cleanVirtualPath('\0'))).toBe(400);
    expect(statusOf(() => cleanVirtualPath('/ok/..\0/x'))).toBe(400);
  });

  it('refuses over-long names and paths with 400, and accepts the limits', () => {
    expect(cleanVirtualPath('/' + 'n'.repeat(255)).path).toHaveLength(256);
    expect(statusOf(() => cleanVirtualPath('/' + 'n'.repeat(256)))).toBe(400);
    // Limits are in bytes: 128 two-byte characters are 256 bytes.
    expect(statusOf(() => cleanVirtualPath('/' + '\u00e9'.repeat(128)))).toBe(400);
    const deep = '/' + Array.from({ length: 16 }, () => 'd'.repeat(250)).join('/');
    expect(cleanVirtualPath(deep).path).toBe(deep);
    const tooDeep = '/' + Array.from({ length: 17 }, () => 'd'.repeat(250)).join('/');
    expect(statusOf(() => cleanVirtualPath(tooDeep))).toBe(400);
  });
});

describe('decodePathComponent', () => {
  it('decodes percent escapes, including encoded slashes and dots', () => {
    expect(decodePathComponent('a%20b')).toBe('a b');
    expect(decodePathComponent('%2e%2e%2fetc')).toBe('../etc');
    expect(decodePathComponent('%C3%BCber')).toBe('\u00fcber');
    // The decoded form still goes through cleanVirtualPath, which confines it.
    expect(cleanVirtualPath(decodePathComponent('/%2e%2e/%2e%2e/etc')).path).toBe('/etc');
  });

  it('refuses malformed escapes with 400', () => {
    expect(statusOf(() => decodePathComponent('%'))).toBe(400);
    expect(statusOf(() => decodePathComponent('%zz'))).toBe(400);
    expect(statusOf(() => decodePathComponent('%C3'))).toBe(400);
  });
});

describe('path helpers', () => {
  it('joins, splits and names canonical paths', () => {
    expect(joinVirtual('/', 'a')).toBe('/a');
    expect(joinVirtual('/a', 'b')).toBe('/a/b');
    expect(parentOf('/a/b')).toBe('/a');
    expect(parentOf('/a')).toBe('/');
    expect(parentOf('/')).toBe('/');
    expect(baseName('/a/b.txt')).toBe('b.txt');
    expect(baseName('/')).toBe('');
  });

  it('tests containment on segment boundaries', () => {
    expect(isWithin('/', '/anything')).toBe(true);
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/a', '/a/b')).toBe(true);
    expect(isWithin('/a', '/ab')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
  });
});
