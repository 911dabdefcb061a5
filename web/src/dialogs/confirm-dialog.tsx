import { DialogFrame } from './dialog-frame';
import type { ConfirmDialogProps, DialogControls } from './dialog-types';
import { useTranslation } from 'react-i18next';
import { useDialogAction } from './use-dialog-action';

/** A destructive confirmation with the texts given: Cancel (focused first) or the action. */
export default function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: ConfirmDialogProps & DialogControls) {
  const { t } = useTranslation();
  const { isBusy, run } = useDialogAction(onClose);
  return (
    <DialogFrame
      title={title}
      isAlert
      onSubmit={() => void run(onConfirm)}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={isBusy}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </DialogFrame>
  );
}
