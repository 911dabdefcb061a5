import { createContext, useContext, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const SlotContext = createContext<HTMLElement | null>(null);

/** Provides the element screens render their top-bar actions into. */
export function TopBarSlotProvider({ element, children }: { element: HTMLElement | null; children: ReactNode }) {
  return <SlotContext.Provider value={element}>{children}</SlotContext.Provider>;
}

/** A screen's actions, shown at the end of the top bar (e.g. the files screen's buttons). */
export function TopBarActions({ children }: { children: ReactNode }) {
  const element = useContext(SlotContext);
  return element ? createPortal(children, element) : null;
}

/** State holder for the slot element (a callback ref keeps it in sync with the DOM). */
export function useSlotElement() {
  return useState<HTMLElement | null>(null);
}
