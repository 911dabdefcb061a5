import { useTranslation } from 'react-i18next';
import { groupDigits } from '../components/listing/group-digits';
import { currentLocaleTag } from '../i18n/i18n';
import { DialogFrame } from './dialog-frame';
import type { DeleteDialogProps, DialogControls } from './dialog-types';
import { useDialogAction } from './use-dialog-action';
import './files-dialogs.css';

export default function DeleteDialog({ names, onConfirm, onClose }: DeleteDialogProps & DialogControls) {
  const { t } = useTranslation();
  const { isBusy, run } = useDialogAction(onClose);
  const question = names.length === 1 ? t('fileDialogs.delete.messageOne', { name: names[0] }) : groupDigits(t('fileDialogs.delete.messageMany', { count: names.length }), names.length, currentLocaleTag());
  return (
    <DialogFrame
      title={t('fileDialogs.delete.title')}
      isAlert
      onSubmit={() => void run(onConfirm)}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={isBusy}>
            {t('fileDialogs.buttons.delete')}
          </button>
        </>
      }
    >
      <p>{question}</p>
    </DialogFrame>
  );
}
