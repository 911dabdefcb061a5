import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rowOffsets, scrollOffsetFor, useWindowRows, visibleRange } from './use-window-rows';

// A group row (40 px) then item rows of 50 px: the listing's shape.
const sizeOf = (index: number) => (index === 0 ? 40 : 50);

describe('row offsets', () => {
  it('sums the heights, one more entry than rows', () => {
    expect([...rowOffsets(4, sizeOf)]).toEqual([0, 40, 90, 140, 190]);
    expect([...rowOffsets(0, sizeOf)]).toEqual([0]);
  });
});

describe('visible range', () => {
  const offsets = rowOffsets(1000, sizeOf);

  it('covers the viewport, widened by the overscan', () => {
    expect(visibleRange(offsets, 0, 200, 0)).toEqual({ first: 0, last: 4 });
    expect(visibleRange(offsets, 0, 200, 3)).toEqual({ first: 0, last: 7 });
    // Row 20 spans 990-1040; row 24 starts at 1190, inside a viewport ending at 1200.
    expect(visibleRange(offsets, 1000, 200, 0)).toEqual({ first: 20, last: 24 });
    expect(visibleRange(offsets, 1000, 200, 6)).toEqual({ first: 14, last: 30 });
  });

  it('a row that ends exactly at the top edge is not visible', () => {
    expect(visibleRange(offsets, 40, 100, 0).first).toBe(1);
    expect(visibleRange(offsets, 39, 100, 0).first).toBe(0);
  });

  it('stays inside the list above, below and when empty', () => {
    expect(visibleRange(offsets, -500, 200, 2)).toEqual({ first: 0, last: 2 });
    expect(visibleRange(offsets, 1_000_000, 200, 2)).toEqual({ first: 997, last: 999 });
    expect(visibleRange(rowOffsets(0, sizeOf), 0, 200, 2)).toEqual({ first: 0, last: -1 });
  });

  it('finds its place in a hundred thousand rows at once', () => {
    const large = rowOffsets(100_000, sizeOf);
    expect(visibleRange(large, 40 + 50 * 70_000, 100, 0)).toEqual({ first: 70_001, last: 70_002 });
  });
});

describe('scroll offset for a row', () => {
  const offsets = rowOffsets(100, sizeOf);
  const view = { top: 1000, height: 300, margin: 100, maxTop: 10_000 };

  it('leaves a row that is wholly in view alone', () => {
    // Row 20 spans 990-1040 in the list, 1090-1140 in the document.
    expect(scrollOffsetFor(offsets, 20, view)).toBeNull();
  });

  it('brings a row above into view at the top edge', () => {
    expect(scrollOffsetFor(offsets, 10, view)).toBe(100 + 490);
    // Partly hidden above counts as above.
    expect(scrollOffsetFor(offsets, 18, view)).toBe(100 + 890);
  });

  it('brings a row below into view at the bottom edge', () => {
    // Row 30 spans 1490-1540 in the list, 1590-1640 in the document.
    expect(scrollOffsetFor(offsets, 30, view)).toBe(1640 - 300);
  });

  it('never scrolls outside the page', () => {
    expect(scrollOffsetFor(offsets, 0, { ...view, margin: 0 })).toBe(0);
    expect(scrollOffsetFor(offsets, 99, { ...view, maxTop: 2000 })).toBe(2000);
    expect(scrollOffsetFor(offsets, 500, { ...view, maxTop: 99_999 })).toBe(100 + 4990 - 300);
    expect(scrollOffsetFor(rowOffsets(0, sizeOf), 0, view)).toBeNull();
  });
});

describe('useWindowRows', () => {
  afterEach(() => {
    window.scrollY = 0;
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 768 });
    delete (document.documentElement as { scrollHeight?: number }).scrollHeight;
  });

  function scrollWindowTo(top: number) {
    act(() => {
      window.scrollY = top;
      window.dispatchEvent(new Event('scroll'));
    });
  }

  it('renders the rows in the viewport and follows the page as it scrolls', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 200 });
    const { result } = renderHook(() => useWindowRows({ count: 1000, estimateSize: sizeOf, overscan: 1, scrollMargin: 100 }));
    expect(result.current.getTotalSize()).toBe(40 + 999 * 50);
    expect(result.current.getVirtualItems().map((row) => row.index)).toEqual([0, 1, 2, 3]);
    expect(result.current.getVirtualItems()[1]).toEqual({ index: 1, start: 140, size: 50 });

    const handle = result.current;
    scrollWindowTo(5000);
    // The list starts 100 px down: 4900 px into it is row 98 (4890-4940); row 102 starts at
    // 5090, inside a viewport ending at 5100.
    expect(result.current.getVirtualItems().map((row) => row.index)).toEqual([97, 98, 99, 100, 101, 102, 103]);
    expect(result.current).toBe(handle);
  });

  it('sums the heights again when asked to measure', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 200 });
    let height = 50;
    const { result, rerender } = renderHook(() => useWindowRows({ count: 10, estimateSize: () => height, overscan: 0, scrollMargin: 0 }));
    expect(result.current.getTotalSize()).toBe(500);
    height = 100;
    rerender();
    expect(result.current.getTotalSize()).toBe(500);
    act(() => result.current.measure());
    expect(result.current.getTotalSize()).toBe(1000);
    expect(result.current.getVirtualItems().map((row) => row.index)).toEqual([0, 1]);
  });

  it('scrolls the page only as far as a row needs', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 200 });
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 100 + 40 + 999 * 50 });
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { result } = renderHook(() => useWindowRows({ count: 1000, estimateSize: sizeOf, overscan: 0, scrollMargin: 100 }));
    result.current.scrollToIndex(1);
    expect(scrollTo).not.toHaveBeenCalled();
    result.current.scrollToIndex(10);
    // Row 10 spans 490-540 in the list, 590-640 in the document.
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 640 - 200 });
  });

  it('stops listening when it unmounts', () => {
    const remove = vi.spyOn(window, 'removeEventListener');
    const { unmount } = renderHook(() => useWindowRows({ count: 5, estimateSize: sizeOf, overscan: 0, scrollMargin: 0 }));
    unmount();
    expect(remove.mock.calls.map(([type]) => type)).toEqual(expect.arrayContaining(['scroll', 'resize']));
  });
});
