import { useEffect, useMemo, useRef, type MouseEvent, type PointerEvent } from 'react';
import { LongPressDelay, LongPressTolerance } from './selection-logic';

type Press = { x: number; y: number; timer: ReturnType<typeof setTimeout> };

export type ItemGestureHandlers = {
  onClick: (event: MouseEvent) => void;
  onPointerDown: (event: PointerEvent) => void;
  onPointerMove: (event: PointerEvent) => void;
  onPointerUp: () => void;
  onPointerCancel: () => void;
  onContextMenu: (event: MouseEvent) => void;
};

export type ClickDetails = { path: string; isRange: boolean; isToggle: boolean; isKeyboard: boolean; time: number };

/**
 * Pointer handling shared by every item: clicks (with modifier keys, and Enter on the item's
 * link, which browsers report as a click with no detail) and the 500 ms long press, cancelled
 * when the pointer travels more than 10 px. The click that ends a long press is swallowed
 * whichever item it lands on: the banner that appears with multiple selection can move the
 * listing under a finger that has not moved.
 */
export function useItemGestures(onClick: (details: ClickDetails) => void, onLongPress: (path: string) => void) {
  const press = useRef<Press | null>(null);
  const swallowClick = useRef(false);
  const callbacks = useRef({ onClick, onLongPress });
  callbacks.current = { onClick, onLongPress };

  // One stable factory, so memoised items do not re-render when the listing does.
  return useMemo(() => {
    const cancel = () => {
      if (press.current) clearTimeout(press.current.timer);
      press.current = null;
    };
    return { cancel, handlersFor: (path: string): ItemGestureHandlers => ({
    onClick: (event) => {
      // The item's link must not navigate by itself: opening is decided here.
      event.preventDefault();
      if (swallowClick.current) {
        swallowClick.current = false;
        // Enter on a link reports no detail; only a pointer's click belongs to the press.
        if (event.detail !== 0) return;
      }
      callbacks.current.onClick({
        path,
        isRange: event.shiftKey,
        isToggle: event.ctrlKey || event.metaKey,
        isKeyboard: event.detail === 0,
        time: event.timeStamp || performance.now(),
      });
    },
    onPointerDown: (event) => {
      if (event.button !== 0 || event.shiftKey || event.ctrlKey || event.metaKey) return;
      cancel();
      swallowClick.current = false;
      const timer = setTimeout(() => {
        press.current = null;
        swallowClick.current = true;
        callbacks.current.onLongPress(path);
      }, LongPressDelay);
      press.current = { x: event.clientX, y: event.clientY, timer };
    },
    onPointerMove: (event) => {
      const current = press.current;
      if (current && Math.hypot(event.clientX - current.x, event.clientY - current.y) > LongPressTolerance) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onContextMenu: (event) => {
      // Touch browsers open a context menu at the end of a long press; the press already selected.
      if (swallowClick.current) event.preventDefault();
    },
  }) };
  }, []);
}

/** Clears a pending long press when the listing goes away. */
export function useCancelOnUnmount(cancel: () => void) {
  useEffect(() => cancel, [cancel]);
}
