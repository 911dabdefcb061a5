import { useState } from 'react';
import { showError } from '../../lib/notify';

/**
 * Runs a settings save: the button is busy meanwhile, a second press while it runs does nothing,
 * and a failure becomes the lasting error toast (spec section 8).
 */
export function useSaveAction() {
  const [isSaving, setSaving] = useState(false);
  const save = async (work: () => Promise<void>) => {
    if (isSaving) return;
    setSaving(true);
    try {
      await work();
    } catch (error) {
      void showError(error);
    } finally {
      setSaving(false);
    }
  };
  return { isSaving, save };
}
