import { Download, ExternalLink } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../components/share/qr-code';
import { formatAbsolute, formatModified } from '../../lib/format-date';
import { formatSize } from '../../lib/format-size';
import { ShareItemIcon } from './share-item-icon';
import './share-info.css';

/** QR code sizes of spec section 9: a file's code is the main thing on its page. */
const FileQrSize = 200;
const FolderQrSize = 100;

type ShareInfoProps = {
  name: string;
  isDir: boolean;
  type: string;
  modified: string;
  size: number;
  /** Entries of a folder. */
  itemCount: number;
  /** Where the download button leads (files) and what the QR code encodes (absolute). */
  downloadUrl: string;
  absoluteDownloadUrl: string;
  /** The file for viewing in the browser. */
  openUrl?: string;
  /** Folders are downloaded as an archive whose format is asked first. */
  onDownloadFolder: () => void;
  locale: string;
  absoluteDates: boolean;
};

/** The box describing what the link shares: name, date, size or item count, download, QR code. */
export function ShareInfo(props: ShareInfoProps) {
  const { name, isDir, type, modified, size, itemCount, downloadUrl, absoluteDownloadUrl, openUrl, onDownloadFolder, locale, absoluteDates } = props;
  const { t } = useTranslation();
  const headingId = useId();
  const date = new Date(modified);
  return (
    <section className="share-info card" aria-labelledby={headingId}>
      <h2 id={headingId} className="share-info__heading">
        {isDir ? t('share.downloadFolder') : t('share.downloadFile')}
      </h2>
      <div className="share-info__identity">
        <ShareItemIcon item={{ isDir, type }} size={40} />
        <p className="share-info__name">{name}</p>
      </div>
      <dl className="share-info__details">
        {!isDir && (
          <>
            <dt>{t('share.lastModified')}</dt>
            <dd>
              <time dateTime={modified} title={Number.isNaN(date.getTime()) ? undefined : formatAbsolute(date, locale)}>
                {formatModified(modified, { absolute: absoluteDates, locale })}
              </time>
            </dd>
          </>
        )}
        <dt>{isDir ? t('share.itemCount') : t('share.size')}</dt>
        <dd>{isDir ? new Intl.NumberFormat(locale).format(itemCount) : formatSize(size, locale)}</dd>
      </dl>
      <div className="share-info__actions">
        {isDir ? (
          <button type="button" className="button button--primary" onClick={onDownloadFolder}>
            <Download aria-hidden="true" size={18} />
            {t('share.download')}
          </button>
        ) : (
          <a className="button button--primary" href={downloadUrl} download>
            <Download aria-hidden="true" size={18} />
            {t('share.download')}
          </a>
        )}
        {!isDir && openUrl && (
          <a className="button" href={openUrl} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden="true" size={18} />
            {t('share.openFile')}
          </a>
        )}
      </div>
      <div className="share-info__qr">
        <QrCode value={absoluteDownloadUrl} size={isDir ? FolderQrSize : FileQrSize} label={t('share.qrLabel')} />
      </div>
    </section>
  );
}
