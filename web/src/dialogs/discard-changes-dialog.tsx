import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogControls, DiscardChangesDialogProps } from './dialog-types';
import { DialogFrame } from './dialog-frame';

/**
 * Asked when leaving the editor with unsaved changes: cancel (stay), save changes, or discard
 * changes. Closing the dialog any other way (Escape, the backdrop) counts as cancel.
 */
export default function DiscardChangesDialog({ onSave, onDiscard, onClose }: DiscardChangesDialogProps & DialogControls) {
  const { t } = useTranslation();
  const [isSaving, setSaving] = useState(false);

  const handleSave = async () => {
    if (isSaving) return;
    setSaving(true);
    try {
      if (await onSave()) onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <DialogFrame
      title={t('editor.discardTitle')}
      isAlert
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>
            {t('buttons.cancel')}
          </button>
          <button type="button" className="button button--danger" onClick={() => {
              onDiscard();
              onClose();
            }} disabled={isSaving}>
            {t('editor.discardChanges')}
          </button>
          <button type="button" className="button button--primary" onClick={() => void handleSave()} disabled={isSaving}>
            {t('editor.saveChanges')}
          </button>
        </>
      }
    >
      <p>{t('editor.discardMessage')}</p>
    </DialogFrame>
  );
}
