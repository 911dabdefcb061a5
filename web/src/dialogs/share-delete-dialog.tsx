import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showError } from '../lib/notify';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, ShareDeleteDialogProps } from './dialog-types';

/** Asks before a share link is deleted: whoever holds it loses access at once. */
export default function ShareDeleteDialog({ onConfirm, onClose }: ShareDeleteDialogProps & DialogControls) {
  const { t } = useTranslation();
  const [isBusy, setBusy] = useState(false);

  const handleConfirm = async () => {
    if (isBusy) return;
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      setBusy(false);
      void showError(error);
    }
  };

  return (
    <DialogFrame
      title={t('shareDelete.title')}
      isAlert
      onSubmit={() => void handleConfirm()}
      actions={
        <>
          <button type="button" className="button button--ghost" data-autofocus onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={isBusy}>
            {t('shareDelete.confirm')}
          </button>
        </>
      }
    >
      <p>{t('shareDelete.message')}</p>
    </DialogFrame>
  );
}
