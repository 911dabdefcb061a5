import { useSyncExternalStore } from 'react';
import { MobileBreakpoint } from '../../stores/layout-store';

const query = `(max-width: ${MobileBreakpoint}px)`;

function subscribe(onChange: () => void) {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** True at the mobile width (736 px or less), where selection actions move to their own bar. */
export function useIsNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
