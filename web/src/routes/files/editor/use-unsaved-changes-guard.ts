import { useEffect, useRef } from 'react';
import { useBlocker } from '../../../lib/router';
import { openDialog, useDialogs } from '../../../stores/dialog-store';
import { useSession } from '../../../stores/session-store';

/**
 * Keeps unsaved edits from being lost. Leaving for another screen inside the app (a link, the
 * browser's back button) is held and the discard-changes dialog asks what to do: cancel stays,
 * save changes saves and goes on when that worked, discard changes goes on. Closing or reloading
 * the tab gets the browser's own warning. A session that ended is never held up.
 */
export function useUnsavedChangesGuard(isDirty: boolean, save: () => Promise<boolean>): void {
  const saveRef = useRef(save);
  saveRef.current = save;

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => isDirty && useSession.getState().user !== null && currentLocation.pathname !== nextLocation.pathname,
  );

  // The blocker object is replaced on every render; only its state decides when to ask.
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let isSettled = false;
    const settle = (go: boolean) => {
      if (isSettled) return;
      isSettled = true;
      if (go) blockerRef.current.proceed?.();
      else blockerRef.current.reset?.();
    };
    const dialogId = openDialog('discard-changes', {
      onSave: async () => {
        const isSaved = await saveRef.current();
        if (isSaved) settle(true);
        return isSaved;
      },
      onDiscard: () => settle(true),
    });
    // Escape, the backdrop and the cancel button all just close the dialog: that means stay.
    const unsubscribe = useDialogs.subscribe((state) => {
      if (!state.stack.some((entry) => entry.id === dialogId)) settle(false);
    });
    return () => {
      unsubscribe();
      // The blocker moved on without an answer (its state changed): stay where we are.
      if (!isSettled) {
        isSettled = true;
        useDialogs.getState().closeDialog(dialogId);
      }
    };
  }, [blocker.state]);

  useEffect(() => {
    if (!isDirty) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the warning only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [isDirty]);
}
