import { FolderPlus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isWithinPath } from '../lib/paths';
import { openDialog } from '../stores/dialog-store';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, TransferDialogProps } from './dialog-types';
import { FolderPicker } from './folder-picker';
import { useDialogAction } from './use-dialog-action';
import './files-dialogs.css';

function TransferDialog({ mode, paths, source, canCreate, singleClick, onConfirm, onClose }: TransferDialogProps & DialogControls & { mode: 'move' | 'copy' }) {
  const { t } = useTranslation();
  const [folder, setFolder] = useState(source);
  const [chosen, setChosen] = useState<string | null>(null);
  const { isBusy, run } = useDialogAction(onClose);
  const destination = chosen ?? folder;
  // Moving to where the items already are changes nothing; nothing goes into itself.
  const isSameFolder = mode === 'move' && destination === source;
  const isIntoItself = paths.some((path) => isWithinPath(destination, path));
  const isDisabled = isBusy || isSameFolder || isIntoItself;

  return (
    <DialogFrame
      title={mode === 'move' ? t('fileDialogs.transfer.moveTitle') : t('fileDialogs.transfer.copyTitle')}
      onSubmit={() => {
        if (!isDisabled) void run(() => onConfirm(destination));
      }}
      actions={
        <>
          {canCreate && (
            <button
              type="button"
              className="button button--ghost dialog__action-start"
              onClick={() =>
                openDialog('new-folder', {
                  folder,
                  onCreated: (path) => setChosen(path),
                })
              }
            >
              <FolderPlus aria-hidden="true" size={18} />
              {t('sidebar.newFolder')}
            </button>
          )}
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isDisabled}>
            {mode === 'move' ? t('fileDialogs.buttons.move') : t('fileDialogs.buttons.copy')}
          </button>
        </>
      }
    >
      <p>{mode === 'move' ? t('fileDialogs.transfer.moveDescription', { count: paths.length }) : t('fileDialogs.transfer.copyDescription', { count: paths.length })}</p>
      <FolderPicker
        folder={folder}
        chosen={chosen}
        singleClick={singleClick}
        onBrowse={(next) => {
          setFolder(next);
          setChosen(null);
        }}
        onChoose={setChosen}
      />
      <p className="transfer-destination" aria-live="polite">
        {t('fileDialogs.transfer.destination')} <strong>{destination}</strong>
        {isSameFolder && <span className="transfer-destination__hint"> — {t('fileDialogs.transfer.sameFolder')}</span>}
        {isIntoItself && <span className="transfer-destination__hint"> — {t('fileDialogs.transfer.intoItself')}</span>}
      </p>
    </DialogFrame>
  );
}

export function MoveDialog(props: TransferDialogProps & DialogControls) {
  return <TransferDialog {...props} mode="move" />;
}

export function CopyDialog(props: TransferDialogProps & DialogControls) {
  return <TransferDialog {...props} mode="copy" />;
}
