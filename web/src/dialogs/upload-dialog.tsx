import { File as FileIcon, Folder } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { entriesFromFiles } from '../lib/upload/upload-entries';
import { startUpload } from '../stores/upload-launcher';
import { DialogFrame } from './dialog-frame';
import type { AbortUploadsDialogProps, DialogControls, UploadDialogProps } from './dialog-types';
import '../components/upload/upload-panel.css';

/** Upload: choose files, or a whole folder (its structure is kept). */
export default function UploadDialog({ folder, onClose }: UploadDialogProps & DialogControls) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = event.currentTarget.files ? [...event.currentTarget.files] : [];
    event.currentTarget.value = '';
    if (files.length === 0) return;
    onClose();
    void startUpload(entriesFromFiles(files), folder);
  };
  return (
    <DialogFrame
      title={t('upload.title')}
      actions={
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('buttons.cancel')}
        </button>
      }
    >
      <p>{t('upload.message')}</p>
      <div className="upload-dialog__choices">
        <button type="button" className="button upload-dialog__choice" data-autofocus onClick={() => fileInput.current?.click()}>
          <FileIcon aria-hidden="true" size={28} />
          {t('upload.file')}
        </button>
        <button type="button" className="button upload-dialog__choice" onClick={() => folderInput.current?.click()}>
          <Folder aria-hidden="true" size={28} />
          {t('upload.folder')}
        </button>
      </div>
      <input ref={fileInput} className="upload-dialog__input" type="file" multiple onChange={handleChange} data-testid="upload-files-input" tabIndex={-1} aria-hidden="true" />
      <input
        ref={folderInput}
        className="upload-dialog__input"
        type="file"
        multiple
        // Not in React's typings: lets the user pick a folder, whose files carry their relative paths.
        {...{ webkitdirectory: '' }}
        onChange={handleChange}
        data-testid="upload-folder-input"
        tabIndex={-1}
        aria-hidden="true"
      />
    </DialogFrame>
  );
}

/** Asks before stopping every upload. */
export function AbortUploadsDialog({ onConfirm, onClose }: AbortUploadsDialogProps & DialogControls) {
  const { t } = useTranslation();
  return (
    <DialogFrame
      title={t('upload.abortTitle')}
      isAlert
      onSubmit={() => {
        onClose();
        onConfirm();
      }}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose} data-autofocus>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--danger">
            {t('upload.abort')}
          </button>
        </>
      }
    >
      <p>{t('upload.abortMessage')}</p>
    </DialogFrame>
  );
}
