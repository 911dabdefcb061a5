import { describe, expect, it } from 'vitest';
import { canDropInto } from './drag-items';
import { isWithinPath } from './paths-within';

describe('dropping items on folders', () => {
  it('refuses the dragged folder itself, its contents and the folder the items are in', () => {
    expect(canDropInto('/docs/sub/', ['/docs/a.txt'])).toBe(true);
    expect(canDropInto('/docs/sub', ['/docs/sub'])).toBe(false);
    expect(canDropInto('/docs/sub/deeper', ['/docs/sub'])).toBe(false);
    expect(canDropInto('/docs/', ['/docs/a.txt'])).toBe(false);
    expect(canDropInto('/', ['/docs/a.txt'])).toBe(true);
    expect(canDropInto('/x', [])).toBe(false);
  });

  it('compares whole path segments', () => {
    expect(isWithinPath('/ab', '/a')).toBe(false);
    expect(isWithinPath('/a/b/', '/a')).toBe(true);
    expect(isWithinPath('/anything', '/')).toBe(true);
  });
});
