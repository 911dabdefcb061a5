import { useState } from 'react';
import { isCancelled } from '../api/api-error';
import { openDialog } from '../stores/dialog-store';

/**
 * Runs a dialog's confirmed action: the buttons are busy meanwhile; success closes the dialog
 * unless the action answers false (the user backed out of a follow-up question and may try
 * again); a failure closes it too and shows the error dialog (spec section 8), except for a cancelled
 * request, which is nobody's error.
 */
export function useDialogAction(onClose: () => void) {
  const [isBusy, setBusy] = useState(false);
  const run = async (action: () => Promise<void | boolean>) => {
    if (isBusy) return;
    setBusy(true);
    try {
      if ((await action()) !== false) onClose();
    } catch (error) {
      onClose();
      if (!isCancelled(error)) openDialog('error', { message: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  return { isBusy, run };
}
