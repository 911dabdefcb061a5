import { afterEach, describe, expect, it, vi } from 'vitest';
import { clampShellHeight, heightAtPointer, throttle } from './shell-height';

const metrics = { windowHeight: 800, fontSize: 16, dividerHeight: 8 };

describe('shell height', () => {
  it('stays between 2.25 em plus the divider and the window height minus 4 em', () => {
    expect(clampShellHeight(1, metrics)).toBe(2.75);
    expect(clampShellHeight(100, metrics)).toBe(46);
    expect(clampShellHeight(20, metrics)).toBe(20);
  });

  it('follows the pointer from the bottom of the window', () => {
    expect(heightAtPointer(800 - 320, metrics)).toBe(20);
    expect(heightAtPointer(0, metrics)).toBe(46);
    expect(heightAtPointer(799, metrics)).toBe(2.75);
  });

  it('keeps the minimum on a window too small for both bounds', () => {
    expect(clampShellHeight(10, { ...metrics, windowHeight: 80 })).toBe(2.75);
  });
});

describe('throttle', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at once, then at most every interval, ending with the latest call', () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const throttled = throttle((value: number) => calls.push(value), 32, () => Date.now());
    throttled(1);
    throttled(2);
    throttled(3);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(31);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([1, 3]);
    vi.advanceTimersByTime(100);
    throttled(4);
    expect(calls).toEqual([1, 3, 4]);
    throttled(5);
    throttled.cancel();
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([1, 3, 4]);
  });
});
