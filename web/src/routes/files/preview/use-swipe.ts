import { useRef, type PointerEvent as ReactPointerEvent } from 'react';
import type { SwipeDirection } from '../../../components/preview/use-zoom-pan';

const SwipeDistance = 60;
const SwipeTime = 700;

/** Pointer handlers reporting a quick horizontal touch swipe (the image viewer has its own). */
export function useSwipe(onSwipe: (direction: SwipeDirection) => void) {
  const start = useRef<{ id: number; x: number; y: number; at: number } | null>(null);
  return {
    onPointerDown: (event: ReactPointerEvent) => {
      start.current = event.pointerType === 'touch' && event.isPrimary ? { id: event.pointerId, x: event.clientX, y: event.clientY, at: performance.now() } : null;
    },
    onPointerUp: (event: ReactPointerEvent) => {
      const begun = start.current;
      start.current = null;
      if (!begun || begun.id !== event.pointerId || performance.now() - begun.at > SwipeTime) return;
      const dx = event.clientX - begun.x;
      const dy = event.clientY - begun.y;
      if (Math.abs(dx) > SwipeDistance && Math.abs(dx) > Math.abs(dy) * 1.5) onSwipe(dx < 0 ? 'left' : 'right');
    },
    onPointerCancel: () => {
      start.current = null;
    },
  };
}
