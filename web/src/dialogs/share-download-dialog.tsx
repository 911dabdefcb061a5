import type { ArchiveFormat } from '@burrow/protocol';
import { useTranslation } from 'react-i18next';
import { archiveFormats } from '../components/share/archive-formats';
import { DialogFrame } from './dialog-frame';
import type { DialogControls } from './dialog-registry';
import './share-download-dialog.css';

export type ShareDownloadDialogProps = {
  /** Called with the chosen format after the dialog closed. */
  onChoose: (format: ArchiveFormat) => void;
};

/** Asks which archive format a shared folder or a selection of shared items is downloaded in. */
export default function ShareDownloadDialog({ onChoose, onClose }: ShareDownloadDialogProps & DialogControls) {
  const { t } = useTranslation();
  return (
    <DialogFrame
      title={t('shareDownload.title')}
      actions={
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('buttons.cancel')}
        </button>
      }
    >
      <p>{t('shareDownload.description')}</p>
      <ul className="archive-formats" aria-label={t('shareDownload.formats')}>
        {archiveFormats.map(({ format, name }, index) => (
          <li key={format}>
            <button
              type="button"
              className="button archive-formats__choice"
              data-autofocus={index === 0 ? true : undefined}
              onClick={() => {
                onClose();
                onChoose(format);
              }}
            >
              {name}
            </button>
          </li>
        ))}
      </ul>
    </DialogFrame>
  );
}
