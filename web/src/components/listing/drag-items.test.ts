import { describe, expect, it } from 'vitest';
import { canDropInto } from './drag-items';

describe('dropping items on folders', () => {
  it('refuses the dragged folder itself, its contents and the folder the items are in', () => {
    expect(canDropInto('/docs/sub/', ['/docs/a.txt'])).toBe(true);
    expect(canDropInto('/docs/sub', ['/docs/sub'])).toBe(false);
    expect(canDropInto('/docs/sub/deeper', ['/docs/sub'])).toBe(false);
    expect(canDropInto('/docs/', ['/docs/a.txt'])).toBe(false);
    expect(canDropInto('/', ['/docs/a.txt'])).toBe(true);
    expect(canDropInto('/x', [])).toBe(false);
  });

  it('refuses the root folder to items that are already in it', () => {
    expect(canDropInto('/', ['/top.txt'])).toBe(false);
    expect(canDropInto('/docs', ['/docs/sub/'])).toBe(false);
  });
});
