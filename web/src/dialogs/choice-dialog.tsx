import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, ReplaceChoice, ReplaceDialogProps, ReplaceRenameChoice, ReplaceRenameDialogProps } from './dialog-types';
import './files-dialogs.css';

/**
 * Reports the choice exactly once; closing the dialog any other way (Escape, the backdrop,
 * leaving the screen) counts as cancel, so whoever asked never waits forever.
 */
function useChoice<T extends string>(onChoice: (choice: T) => void, onClose: () => void, cancel: T) {
  const isSettled = useRef(false);
  const isMounted = useRef(false);
  const latest = useRef(onChoice);
  latest.current = onChoice;
  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
      // Decided a moment later: a development remount runs this cleanup without really closing.
      setTimeout(() => {
        if (isMounted.current || isSettled.current) return;
        isSettled.current = true;
        latest.current(cancel);
      }, 0);
    };
  }, [cancel]);
  return (choice: T) => {
    isSettled.current = true;
    onClose();
    latest.current(choice);
  };
}

const NamesShown = 5;

/** An upload meets an existing file: skip it (continue), replace it, or stop. */
export function ReplaceDialog({ onChoice, onClose }: ReplaceDialogProps & DialogControls) {
  const { t } = useTranslation();
  const choose = useChoice<ReplaceChoice>(onChoice, onClose, 'cancel');
  return (
    <DialogFrame
      title={t('fileDialogs.replace.title')}
      onSubmit={() => choose('replace')}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={() => choose('cancel')}>
            {t('buttons.cancel')}
          </button>
          <button type="button" className="button" onClick={() => choose('continue')}>
            {t('fileDialogs.buttons.continue')}
          </button>
          <button type="submit" className="button button--primary" data-autofocus>
            {t('fileDialogs.buttons.replace')}
          </button>
        </>
      }
    >
      <p>{t('fileDialogs.replace.message')}</p>
    </DialogFrame>
  );
}

/** A copy or move meets existing names: replace them, keep both (rename the new ones), or stop. */
export function ReplaceRenameDialog({ names, onChoice, onClose }: ReplaceRenameDialogProps & DialogControls) {
  const { t } = useTranslation();
  const choose = useChoice<ReplaceRenameChoice>(onChoice, onClose, 'cancel');
  const shown = names.slice(0, NamesShown);
  return (
    <DialogFrame
      title={t('fileDialogs.replaceRename.title')}
      onSubmit={() => choose('rename')}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={() => choose('cancel')}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button" data-autofocus>
            {t('fileDialogs.buttons.rename')}
          </button>
          <button type="button" className="button button--danger" onClick={() => choose('replace')}>
            {t('fileDialogs.buttons.replace')}
          </button>
        </>
      }
    >
      <p>{t('fileDialogs.replaceRename.message', { count: names.length })}</p>
      {shown.length > 0 && (
        <ul className="dialog-names">
          {shown.map((name) => (
            <li key={name}>{name}</li>
          ))}
          {names.length > shown.length && <li className="dialog-names__more">{t('fileDialogs.replaceRename.more', { count: names.length - shown.length })}</li>}
        </ul>
      )}
    </DialogFrame>
  );
}
