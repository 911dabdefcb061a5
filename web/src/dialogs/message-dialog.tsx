import { CircleAlert, CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, MessageDialogProps } from './dialog-types';
import './files-dialogs.css';

function MessageDialog({ message, onClose, tone }: MessageDialogProps & DialogControls & { tone: 'error' | 'success' }) {
  const { t } = useTranslation();
  const Icon = tone === 'error' ? CircleAlert : CircleCheck;
  return (
    <DialogFrame
      title={tone === 'error' ? t('fileDialogs.error.title') : t('fileDialogs.success.title')}
      isAlert={tone === 'error'}
      onSubmit={onClose}
      actions={
        <button type="submit" className="button button--primary" data-autofocus>
          {t('fileDialogs.buttons.close')}
        </button>
      }
    >
      <div className={`message-dialog message-dialog--${tone}`}>
        <Icon className="message-dialog__icon" aria-hidden="true" size={28} />
        <p className="message-dialog__text">{message}</p>
      </div>
    </DialogFrame>
  );
}

/** A failed operation, with the server's status text. */
export function ErrorDialog(props: MessageDialogProps & DialogControls) {
  return <MessageDialog {...props} tone="error" />;
}

export function SuccessDialog(props: MessageDialogProps & DialogControls) {
  return <MessageDialog {...props} tone="success" />;
}
