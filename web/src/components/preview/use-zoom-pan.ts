import { useCallback, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { clampView, Identity, pinch, wheelFactor, zoomAt, type Point, type View } from './zoom-math';

export type SwipeDirection = 'left' | 'right';

type Gesture =
  | { kind: 'pan'; pointerId: number; start: Point; startView: View; startedAt: number; isTouch: boolean }
  | { kind: 'pinch'; startView: View; startMid: Point; startDistance: number };

const SwipeDistance = 60;
const SwipeTime = 700;
const DoubleTapScale = 2.5;
/** Spec section 9: a double click or tap is two within 300 ms. */
const DoubleTapWindow = 300;
const TapSlop = 10;

/**
 * Zoom (wheel, pinch, double click, buttons) and pan (drag while enlarged) of an image inside a
 * box. A quick horizontal swipe at the fitted size is reported instead, to page through files.
 */
export function useZoomPan(boxRef: RefObject<HTMLElement | null>, imageRef: RefObject<HTMLElement | null>, onSwipe?: (direction: SwipeDirection) => void) {
  const [view, setView] = useState<View>(Identity);
  const viewRef = useRef(view);
  viewRef.current = view;
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | null>(null);
  const lastTap = useRef<{ at: number; point: Point } | null>(null);
  const lastTouchToggle = useRef(0);
  const onSwipeRef = useRef(onSwipe);
  onSwipeRef.current = onSwipe;

  const relative = useCallback(
    (clientX: number, clientY: number): Point => {
      const rect = boxRef.current?.getBoundingClientRect();
      return rect ? { x: clientX - rect.left - rect.width / 2, y: clientY - rect.top - rect.height / 2 } : { x: 0, y: 0 };
    },
    [boxRef],
  );

  const apply = useCallback(
    (next: View) => {
      const box = boxRef.current;
      const image = imageRef.current;
      const clamped = box && image ? clampView(next, { width: image.offsetWidth, height: image.offsetHeight }, { width: box.clientWidth, height: box.clientHeight }) : next;
      setView(clamped);
    },
    [boxRef, imageRef],
  );

  const zoomBy = useCallback((factor: number, anchor: Point = { x: 0, y: 0 }) => apply(zoomAt(viewRef.current, viewRef.current.scale * factor, anchor)), [apply]);
  const reset = useCallback(() => setView(Identity), []);

  // A wheel listener must be non-passive to keep the page from scrolling; React's is passive.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const handleWheel = (event: WheelEvent) => {
      event.preventDefault();
      zoomBy(wheelFactor(event.deltaY, event.deltaMode), relative(event.clientX, event.clientY));
    };
    box.addEventListener('wheel', handleWheel, { passive: false });
    return () => box.removeEventListener('wheel', handleWheel);
  }, [boxRef, relative, zoomBy]);

  const startGesture = () => {
    const points = [...pointers.current.entries()];
    if (points.length >= 2) {
      const [[, a], [, b]] = points as [[number, Point], [number, Point]];
      gesture.current = {
        kind: 'pinch',
        startView: viewRef.current,
        startMid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
        startDistance: Math.hypot(a.x - b.x, a.y - b.y),
      };
    } else if (points.length === 1) {
      const [[pointerId, point]] = points as [[number, Point]];
      gesture.current = { kind: 'pan', pointerId, start: point, startView: viewRef.current, startedAt: performance.now(), isTouch: false };
    } else {
      gesture.current = null;
    }
  };

  const onPointerDown = (event: ReactPointerEvent) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pointers.current.set(event.pointerId, relative(event.clientX, event.clientY));
    try {
      // Keeps a drag going when the pointer leaves the image.
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // A pointer the browser no longer tracks cannot be captured; the gesture works without.
    }
    startGesture();
    if (gesture.current?.kind === 'pan') gesture.current.isTouch = event.pointerType !== 'mouse';
  };

  const onPointerMove = (event: ReactPointerEvent) => {
    if (!pointers.current.has(event.pointerId)) return;
    const point = relative(event.clientX, event.clientY);
    pointers.current.set(event.pointerId, point);
    const current = gesture.current;
    if (!current) return;
    if (current.kind === 'pinch') {
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      apply(pinch(current.startView, current.startMid, current.startDistance, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, Math.hypot(a.x - b.x, a.y - b.y)));
    } else if (current.pointerId === event.pointerId && current.startView.scale > 1) {
      apply({ ...current.startView, x: current.startView.x + point.x - current.start.x, y: current.startView.y + point.y - current.start.y });
    }
  };

  const onPointerUp = (event: ReactPointerEvent) => {
    const current = gesture.current;
    const point = pointers.current.get(event.pointerId);
    pointers.current.delete(event.pointerId);
    if (current?.kind === 'pan' && point && current.pointerId === event.pointerId && current.startView.scale <= 1 && event.type === 'pointerup') {
      const dx = point.x - current.start.x;
      const dy = point.y - current.start.y;
      const isQuick = performance.now() - current.startedAt < SwipeTime;
      if (isQuick && Math.abs(dx) > SwipeDistance && Math.abs(dx) > Math.abs(dy) * 1.5) onSwipeRef.current?.(dx < 0 ? 'left' : 'right');
    }
    // Touch screens send no dblclick: two quick taps in place zoom instead.
    if (current?.kind === 'pan' && current.isTouch && point && event.type === 'pointerup' && pointers.current.size === 0) {
      const isTap = Math.hypot(point.x - current.start.x, point.y - current.start.y) < TapSlop;
      const now = performance.now();
      const previous = lastTap.current;
      if (isTap && previous && now - previous.at < DoubleTapWindow && Math.hypot(point.x - previous.point.x, point.y - previous.point.y) < TapSlop * 3) {
        lastTap.current = null;
        lastTouchToggle.current = now;
        toggleZoom(point);
      } else {
        lastTap.current = isTap ? { at: now, point } : null;
      }
    }
    // Lifting one of two fingers continues as a pan with the other.
    startGesture();
  };

  function toggleZoom(anchor: Point) {
    if (viewRef.current.scale > 1) reset();
    else apply(zoomAt(viewRef.current, DoubleTapScale, anchor));
  }

  const onDoubleClick = (event: ReactMouseEvent) => {
    // A touch double tap was handled above; some browsers report it as dblclick too.
    if (performance.now() - lastTouchToggle.current < 600) return;
    toggleZoom(relative(event.clientX, event.clientY));
  };

  return {
    view,
    zoomBy,
    reset,
    handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onDoubleClick },
  };
}
