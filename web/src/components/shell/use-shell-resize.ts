import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { clampShellHeight, DefaultShellHeight, DragThrottleMs, heightAtPointer, throttle, type ShellMetrics } from './shell-height';

function metricsOf(panel: HTMLElement | null, divider: HTMLElement | null): ShellMetrics {
  const fontSize = panel ? parseFloat(getComputedStyle(panel).fontSize) || 16 : 16;
  return { windowHeight: window.innerHeight, fontSize, dividerHeight: divider?.offsetHeight ?? 0 };
}

/**
 * The panel's height in em, changed by dragging the divider (pointer moves handled at most every
 * 32 ms) or with the arrow keys, Home and End on it, and kept within bounds when the window
 * changes size.
 */
export function useShellResize(panelRef: RefObject<HTMLElement | null>, dividerRef: RefObject<HTMLElement | null>) {
  const [height, setHeight] = useState(DefaultShellHeight);
  const [isDragging, setDragging] = useState(false);
  const metrics = useCallback(() => metricsOf(panelRef.current, dividerRef.current), [panelRef, dividerRef]);

  const follow = useRef(throttle((clientY: number) => setHeight(heightAtPointer(clientY, metrics())), DragThrottleMs));
  useEffect(() => {
    const throttled = follow.current;
    return () => throttled.cancel();
  }, []);

  useEffect(() => {
    const refit = () => setHeight((current) => clampShellHeight(current, metrics()));
    refit();
    window.addEventListener('resize', refit);
    return () => window.removeEventListener('resize', refit);
  }, [metrics]);

  const dividerProps = {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      setDragging(true);
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      if (event.currentTarget.hasPointerCapture(event.pointerId)) follow.current(event.clientY);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
      setDragging(false);
    },
    onPointerCancel: () => setDragging(false),
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      const step = event.shiftKey ? 5 : 1;
      let next: number | undefined;
      if (event.key === 'ArrowUp') next = height + step;
      else if (event.key === 'ArrowDown') next = height - step;
      else if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = Number.MAX_SAFE_INTEGER;
      if (next === undefined) return;
      event.preventDefault();
      setHeight(clampShellHeight(next, metrics()));
    },
  };

  const current = metrics();
  return {
    height,
    isDragging,
    dividerProps,
    minimum: clampShellHeight(0, current),
    maximum: clampShellHeight(Number.MAX_SAFE_INTEGER, current),
  };
}
