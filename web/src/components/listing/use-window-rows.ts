import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** A row the listing renders: its index, its document offset and its height. */
export type WindowRow = { index: number; start: number; size: number };

type Range = { first: number; last: number };

const EmptyRange: Range = { first: 0, last: -1 };

/** Row start offsets as running sums: row `i` spans `offsets[i]` to `offsets[i + 1]`. */
export function rowOffsets(count: number, sizeOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let index = 0; index < count; index += 1) offsets[index + 1] = offsets[index]! + sizeOf(index);
  return offsets;
}

/** The first row whose end lies below `offset` (binary search over the running sums). */
function rowAt(offsets: Float64Array, offset: number): number {
  const count = offsets.length - 1;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle + 1]! <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The rows to render for a viewport `height` tall scrolled to `top` (both relative to the
 * listing's start), widened by `overscan` rows on either side.
 */
export function visibleRange(offsets: Float64Array, top: number, height: number, overscan: number): Range {
  const count = offsets.length - 1;
  if (count === 0) return EmptyRange;
  const first = rowAt(offsets, top);
  let last = first;
  while (last + 1 < count && offsets[last + 1]! < top + height) last += 1;
  return { first: Math.max(0, first - overscan), last: Math.min(count - 1, last + overscan) };
}

/**
 * Where to scroll so row `index` is in view: nowhere (`null`) when it already is, otherwise the
 * smallest move that shows it whole, at the top edge or the bottom edge of the viewport.
 */
export function scrollOffsetFor(
  offsets: Float64Array,
  index: number,
  view: { top: number; height: number; margin: number; maxTop: number },
): number | null {
  const count = offsets.length - 1;
  if (count === 0) return null;
  const row = Math.max(0, Math.min(index, count - 1));
  const start = offsets[row]! + view.margin;
  const end = offsets[row + 1]! + view.margin;
  let target: number;
  if (end >= view.top + view.height) target = end - view.height;
  else if (start <= view.top) target = start;
  else return null;
  return Math.max(0, Math.min(target, view.maxTop));
}

type WindowRowsOptions = {
  count: number;
  /** Height of a row; read again when `count` changes or `measure()` is called. */
  estimateSize: (index: number) => number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** Document offset of the listing's first row. */
  scrollMargin: number;
};

function sameRange(a: Range, b: Range): boolean {
  return a.first === b.first && a.last === b.last;
}

function viewportRange(offsets: Float64Array, scrollMargin: number, overscan: number): Range {
  return visibleRange(offsets, window.scrollY - scrollMargin, window.innerHeight, overscan);
}

/**
 * Windowing for a list the page itself scrolls, whose row heights are known up front: only the
 * rows in and near the viewport are rendered, however many there are. Row heights are summed
 * once (not on every scroll), and a scroll re-renders only when the set of rows changes.
 */
export function useWindowRows({ count, estimateSize, overscan, scrollMargin }: WindowRowsOptions) {
  const sizeOf = useRef(estimateSize);
  sizeOf.current = estimateSize;
  const [version, setVersion] = useState(0);
  // Heights change with the view and the width; the caller asks for a new sum with `measure()`,
  // which bumps `version`.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` is the request to sum again
  const offsets = useMemo(() => rowOffsets(count, (index) => sizeOf.current(index)), [count, version]);
  const [range, setRange] = useState(() => viewportRange(offsets, scrollMargin, overscan));
  const rangeRef = useRef(range);
  rangeRef.current = range;

  useLayoutEffect(() => {
    const update = (isScroll: boolean) => {
      const next = viewportRange(offsets, scrollMargin, overscan);
      if (sameRange(next, rangeRef.current)) return;
      rangeRef.current = next;
      // While scrolling, the new rows are painted in the same frame as the scroll itself.
      if (isScroll) flushSync(() => setRange(next));
      else setRange(next);
    };
    update(false);
    const handleScroll = () => update(true);
    const handleResize = () => update(false);
    window.addEventListener('scroll', handleScroll, { passive: true });
    window.addEventListener('resize', handleResize);
    return () => {
      window.removeEventListener('scroll', handleScroll);
      window.removeEventListener('resize', handleResize);
    };
  }, [offsets, scrollMargin, overscan]);

  const rows = useMemo(() => {
    const result: WindowRow[] = [];
    const last = Math.min(range.last, count - 1);
    for (let index = range.first; index <= last; index += 1) {
      result.push({ index, start: offsets[index]! + scrollMargin, size: offsets[index + 1]! - offsets[index]! });
    }
    return result;
  }, [range, offsets, count, scrollMargin]);

  // One object for the component's lifetime (callers keep it in effect dependencies), reading
  // the latest rows and offsets.
  const latest = useRef({ rows, offsets, scrollMargin });
  latest.current = { rows, offsets, scrollMargin };
  const [handle] = useState(() => ({
    getVirtualItems: (): readonly WindowRow[] => latest.current.rows,
    getTotalSize: (): number => latest.current.offsets[latest.current.offsets.length - 1]!,
    /** Sums the row heights again (they changed with the view or the width). */
    measure: (): void => setVersion((value) => value + 1),
    /** Scrolls the page just enough to show row `index` whole. */
    scrollToIndex: (index: number): void => {
      const { offsets: current, scrollMargin: margin } = latest.current;
      const maxTop = Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
      const top = scrollOffsetFor(current, index, { top: window.scrollY, height: window.innerHeight, margin, maxTop });
      if (top !== null) window.scrollTo({ top });
    },
  }));
  return handle;
}

/**
 * The document offset of an element, where a page-scrolled window of rows starts. It is measured
 * after every render, since anything above the element may have moved it; setting the same
 * number again does not render anew.
 */
export function useDocumentTop(ref: React.RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after every render on purpose (see above)
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
  });
  return top;
}
