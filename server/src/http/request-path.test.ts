import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { pathAfter, pathnameOf } from './request-path.js';

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('pathAfter', () => {
  it('decodes what follows the prefix once and drops the query string', () => {
    expect(pathAfter('/api/raw/a%20b/c%2Bd.txt?x=1', '/api/raw')).toBe('/a b/c+d.txt');
    expect(pathAfter('/api/raw/%2541', '/api/raw')).toBe('/%41');
    expect(pathAfter('/api/raw/caf%C3%A9?x=%zz', '/api/raw')).toBe('/café');
  });

  it('answers / when nothing follows the prefix', () => {
    expect(pathAfter('/api/raw', '/api/raw')).toBe('/');
    expect(pathAfter('/api/raw?inline=true', '/api/raw')).toBe('/');
    expect(pathAfter('/api/raw/', '/api/raw')).toBe('/');
  });

  it('turns %2F into a separator', () => {
    expect(pathAfter('/api/public/dl/hash%2Fsub%2Fa.txt', '/api/public/dl')).toBe('/hash/sub/a.txt');
  });

  it('keeps dot segments, doubled slashes and the trailing slash for the scope gate', () => {
    expect(pathAfter('/api/resources/a/../b', '/api/resources')).toBe('/a/../b');
    expect(pathAfter('/api/resources/%2E%2E/x', '/api/resources')).toBe('/../x');
    expect(pathAfter('/api/resources//a//b', '/api/resources')).toBe('//a//b');
    expect(pathAfter('/api/resources/new%20dir/', '/api/resources')).toBe('/new dir/');
  });

  it('refuses malformed percent-encoding with 400', () => {
    for (const url of ['/api/raw/%E0%A4%A', '/api/raw/%zz', '/api/raw/50%', '/api/raw/%C3']) {
      const error = refusal(() => pathAfter(url, '/api/raw'));
      expect(error.status, url).toBe(400);
      expect(error.detail).toBe('malformed path encoding');
    }
  });

  it('matches the prefix on whole segments, also when the client escaped it', () => {
    expect(pathAfter('/api/%72aw/x', '/api/raw')).toBe('/x');
    expect(pathAfter('/%61pi/raw', '/api/raw')).toBe('/');
    expect(pathAfter('/dav/a', '/dav')).toBe('/a');
    for (const url of ['/api/rawx', '/api/shares/1', '/api/raw%2Fx', '/other/raw/x', '/api']) {
      const prefix = url.startsWith('/api/shares') ? '/api/share' : '/api/raw';
      expect(refusal(() => pathAfter(url, prefix)).status, url).toBe(400);
    }
  });
});

describe('pathnameOf', () => {
  it('is the URL before its query string', () => {
    expect(pathnameOf('/a/b?c=d?e')).toBe('/a/b');
    expect(pathnameOf('/a/b')).toBe('/a/b');
    expect(pathnameOf('/?')).toBe('/');
  });
});
