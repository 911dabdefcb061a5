import { useSyncExternalStore } from 'react';
import type { AppliedTheme } from '../../../lib/theme';

function readTheme(): AppliedTheme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

function subscribe(onChange: () => void): () => void {
  // The root's class is the single source of truth (it also follows the system scheme).
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/** Whether the app currently looks light or dark. */
export function useAppliedTheme(): AppliedTheme {
  return useSyncExternalStore(subscribe, readTheme, readTheme);
}
