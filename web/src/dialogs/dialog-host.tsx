import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from '../lib/router';
import { useDialogs } from '../stores/dialog-store';

// The dialog machinery (stack, focus trap, the registry of every dialog) is fetched with the
// first dialog that opens, not at start-up.
const DialogStack = lazy(() => import('./dialog-stack'));

/**
 * Hosts the dialog stack (see `dialog-stack.tsx`) while any dialog is open. Leaving the route
 * closes every dialog.
 */
export function DialogHost() {
  const isOpen = useDialogs((state) => state.stack.length > 0);
  const closeAll = useDialogs((state) => state.closeAll);
  const location = useLocation();

  useEffect(() => {
    closeAll();
  }, [location.pathname, closeAll]);

  if (!isOpen) return null;
  return (
    <Suspense fallback={null}>
      <DialogStack />
    </Suspense>
  );
}
