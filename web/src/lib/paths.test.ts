import { describe, expect, it } from 'vitest';
import { baseName, isWithinPath, parentPath, trimmedPath, withoutTrailingSlash } from './paths';

describe('path helpers', () => {
  it('drop trailing slashes, keeping the root where a folder is compared', () => {
    expect(withoutTrailingSlash('/a/b//')).toBe('/a/b');
    expect(withoutTrailingSlash('/')).toBe('');
    expect(trimmedPath('/a/b/')).toBe('/a/b');
    expect(trimmedPath('/')).toBe('/');
  });

  it('name the parent folder and the last segment, with or without a trailing slash', () => {
    expect(parentPath('/a/b.txt')).toBe('/a/');
    expect(parentPath('/a/b/')).toBe('/a/');
    expect(parentPath('/top')).toBe('/');
    expect(baseName('/a/b/')).toBe('b');
  });

  it('compare whole segments when asking whether one path lies within another', () => {
    expect(isWithinPath('/ab', '/a')).toBe(false);
    expect(isWithinPath('/a/b/', '/a')).toBe(true);
    expect(isWithinPath('/a/', '/a')).toBe(true);
    expect(isWithinPath('/anything', '/')).toBe(true);
  });
});
