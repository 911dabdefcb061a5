import type { ArchiveFormat } from '@burrow/protocol';
import { FileArchive } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, DownloadDialogProps } from './dialog-types';
import './files-dialogs.css';

/** The nine archive formats with the suffix their file gets, in the order offered. */
export const archiveChoices = [
  ['zip', 'zip'],
  ['tar', 'tar'],
  ['targz', 'tar.gz'],
  ['tarbz2', 'tar.bz2'],
  ['tarxz', 'tar.xz'],
  ['tarlz4', 'tar.lz4'],
  ['tarsz', 'tar.sz'],
  ['tarbr', 'tar.br'],
  ['tarzst', 'tar.zst'],
] as const satisfies ReadonlyArray<readonly [ArchiveFormat, string]>;

/** Several items or folders download as one archive: this asks in which format. */
export default function DownloadDialog({ onChoose, onClose }: DownloadDialogProps & DialogControls) {
  const { t } = useTranslation();
  return (
    <DialogFrame
      title={t('fileDialogs.download.title')}
      actions={
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('buttons.cancel')}
        </button>
      }
    >
      <p>{t('fileDialogs.download.description')}</p>
      <div className="format-grid" role="group" aria-label={t('fileDialogs.download.formats')}>
        {archiveChoices.map(([format, label], index) => (
          <button
            key={format}
            type="button"
            className="format-button"
            data-autofocus={index === 0 ? true : undefined}
            onClick={() => {
              onClose();
              onChoose(format);
            }}
          >
            <FileArchive aria-hidden="true" size={18} />
            <span>{label}</span>
          </button>
        ))}
      </div>
    </DialogFrame>
  );
}
