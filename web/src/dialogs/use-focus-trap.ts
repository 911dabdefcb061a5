import { useEffect, useState, type RefObject } from 'react';

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(focusableSelector)).filter((element) => !element.closest('[inert]'));
}

/**
 * Keeps Tab and Shift+Tab inside the container while active, moves focus into it when it
 * opens (to an `autofocus`/`data-autofocus` element, else the first control) and gives focus
 * back to the element that had it when the container goes away.
 */
export function focusInitial(container: HTMLElement): void {
  const preferred = container.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(container)[0] ?? container;
  preferred.focus();
}

export function useFocusTrap(ref: RefObject<HTMLElement | null>, isActive: boolean): void {
  // Captured while rendering, before the page behind turns inert and loses its focus.
  const [previous] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    return () => {
      // Give focus back only if it is not already somewhere meaningful (another dialog took it).
      if (previous && previous.isConnected && (document.activeElement === document.body || document.activeElement === null || !document.activeElement.isConnected)) {
        previous.focus();
      }
    };
  }, [previous]);

  useEffect(() => {
    const container = ref.current;
    if (!container || !isActive) return;
    if (!container.contains(document.activeElement)) focusInitial(container);
    const handleKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return;
      const items = focusables(container);
      if (items.length === 0) {
        event.preventDefault();
        container.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      const isOutside = active === container || !container.contains(active);
      if (event.shiftKey && (active === first || isOutside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || isOutside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, [ref, isActive]);
}
