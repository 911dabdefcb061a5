import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, RenameDialogProps } from './dialog-types';
import { useDialogAction } from './use-dialog-action';
import './files-dialogs.css';

/** The part of a file name before its extension, which is what people usually change. */
function stemLength(name: string): number {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? dot : name.length;
}

export default function RenameDialog({ name, siblings, onRename, onClose }: RenameDialogProps & DialogControls) {
  const { t } = useTranslation();
  const [value, setValue] = useState(name);
  const inputRef = useRef<HTMLInputElement>(null);
  const { isBusy, run } = useDialogAction(onClose);
  const trimmed = value.trim();
  const clashes = trimmed !== name && trimmed !== '' && (siblings ?? []).includes(trimmed);
  const hasSlash = trimmed.includes('/');
  // A slash cannot be sent; a taken name can, and then asks whether to replace or keep both.
  const problem = hasSlash ? t('fileDialogs.rename.slash') : '';
  const notice = !problem && clashes ? t('fileDialogs.rename.exists') : '';

  useEffect(() => {
    inputRef.current?.setSelectionRange(0, stemLength(name));
  }, [name]);

  const handleSubmit = () => {
    // Spec: an empty name does nothing; the same name has nothing to change.
    if (!trimmed || problem) return;
    if (trimmed === name) {
      onClose();
      return;
    }
    void run(() => onRename(trimmed));
  };

  return (
    <DialogFrame
      title={t('fileDialogs.rename.title')}
      onSubmit={handleSubmit}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isBusy}>
            {t('fileDialogs.buttons.rename')}
          </button>
        </>
      }
    >
      <p>{t('fileDialogs.rename.description', { name })}</p>
      <label className="field">
        <span className="field__label">{t('fileDialogs.rename.label')}</span>
        <input
          ref={inputRef}
          className="input"
          data-autofocus
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem !== ''}
          aria-describedby={problem ? 'rename-problem' : notice ? 'rename-notice' : undefined}
        />
      </label>
      {problem && (
        <p id="rename-problem" className="dialog-problem" role="alert">
          {problem}
        </p>
      )}
      {notice && (
        <p id="rename-notice" className="dialog-notice" role="status">
          {notice}
        </p>
      )}
    </DialogFrame>
  );
}
