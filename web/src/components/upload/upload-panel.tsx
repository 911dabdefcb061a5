import { CircleCheck, ChevronDown, ChevronUp, Upload, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatSize } from '../../lib/format-size';
import { formatDuration, percentOf } from '../../lib/upload/speed';
import { openDialog } from '../../stores/dialog-store';
import { abortUploads, toggleUploadPanel, useUploads } from '../../stores/uploads';

const FilesShown = 50;

/**
 * The progress card in the corner while uploads run: speed, time left, percent, sent of total,
 * a bar per file, abort (after a confirmation) and a collapse toggle. After a batch it shows a
 * success mark for a moment.
 */
export function UploadPanel() {
  const { t } = useTranslation();
  const { files, totalBytes, sentBytes, speed, eta, isCollapsed, isBusy, isFinished } = useUploads();
  if (!isBusy && !isFinished) return null;
  const locale = currentLocaleTag();
  const percent = isFinished ? 100 : percentOf(sentBytes, totalBytes);
  const running = files.filter((file) => file.status === 'active' || file.status === 'pending');
  const shown = (isFinished ? files : running).slice(0, FilesShown);
  const confirmAbort = () => openDialog('upload-abort', { onConfirm: () => void abortUploads() });

  return (
    <section className="upload-panel" data-state={isFinished ? 'done' : 'running'} aria-label={t('upload.panelLabel')}>
      <header className="upload-panel__header">
        {isFinished ? (
          <CircleCheck className="upload-panel__done" aria-hidden="true" size={20} />
        ) : (
          <Upload className="upload-panel__icon" aria-hidden="true" size={20} />
        )}
        <h2 className="upload-panel__title">{isFinished ? t('upload.finished') : t('upload.uploading', { count: running.length })}</h2>
        <span className="upload-panel__percent" data-testid="upload-percent">
          {percent}%
        </span>
        <button
          type="button"
          className="icon-button upload-panel__toggle"
          onClick={toggleUploadPanel}
          aria-expanded={!isCollapsed}
          aria-label={isCollapsed ? t('upload.expand') : t('upload.collapse')}
          title={isCollapsed ? t('upload.expand') : t('upload.collapse')}
        >
          {isCollapsed ? <ChevronUp aria-hidden="true" size={18} /> : <ChevronDown aria-hidden="true" size={18} />}
        </button>
        {isBusy && (
          <button type="button" className="icon-button upload-panel__abort" onClick={confirmAbort} aria-label={t('upload.abort')} title={t('upload.abort')}>
            <X aria-hidden="true" size={18} />
          </button>
        )}
      </header>
      {!isCollapsed && (
        <div className="upload-panel__body">
          <dl className="upload-panel__stats">
            <div>
              <dt>{t('upload.speed')}</dt>
              <dd data-testid="upload-speed">{formatSize(speed, locale)}/s</dd>
            </div>
            <div>
              <dt>{t('upload.remaining')}</dt>
              <dd data-testid="upload-eta">{formatDuration(isFinished ? 0 : eta)}</dd>
            </div>
            <div>
              <dt>{t('upload.sent')}</dt>
              <dd data-testid="upload-sent">
                {formatSize(sentBytes, locale)} / {formatSize(totalBytes, locale)}
              </dd>
            </div>
          </dl>
          <ul className="upload-panel__files">
            {shown.map((file) => (
              <li key={file.id} className={`upload-file upload-file--${file.status}`}>
                <span className="upload-file__name" title={file.path}>
                  {file.name}
                </span>
                <progress className="upload-file__bar" max={Math.max(1, file.size)} value={file.status === 'done' ? Math.max(1, file.size) : file.sent} aria-label={file.name} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The thin bar across the top of the page while uploads run. */
export function UploadTopBar() {
  const { t } = useTranslation();
  const { totalBytes, sentBytes, isBusy } = useUploads();
  if (!isBusy) return null;
  const percent = percentOf(sentBytes, totalBytes);
  return (
    <div className="upload-top-bar" role="progressbar" aria-label={t('upload.panelLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <div className="upload-top-bar__fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
