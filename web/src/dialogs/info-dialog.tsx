import type { ChecksumAlgorithm, ResourceItem } from '@burrow/protocol';
import { useQuery } from '../lib/query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupDigits } from '../components/listing/group-digits';
import { fetchChecksum, fetchResource, rawUrl } from '../api/resources';
import { currentLocaleTag } from '../i18n/i18n';
import { formatAbsolute, formatRelative } from '../lib/format-date';
import { formatSize } from '../lib/format-size';
import { DialogFrame } from './dialog-frame';
import type { DialogControls, InfoDialogProps, InfoSubject } from './dialog-types';
import './files-dialogs.css';

const algorithms: readonly ChecksumAlgorithm[] = ['md5', 'sha1', 'sha256', 'sha512'];

function useTypeLabel() {
  const { t } = useTranslation();
  return (item: Pick<ResourceItem, 'isDir' | 'type'>): string => {
    if (item.isDir) return t('fileDialogs.info.types.folder');
    switch (item.type) {
      case 'text':
      case 'textImmutable':
        return t('fileDialogs.info.types.text');
      case 'image':
        return t('fileDialogs.info.types.image');
      case 'video':
        return t('fileDialogs.info.types.video');
      case 'audio':
        return t('fileDialogs.info.types.audio');
      case 'pdf':
        return t('fileDialogs.info.types.pdf');
      case 'invalid_link':
        return t('fileDialogs.info.types.brokenLink');
      default:
        return t('fileDialogs.info.types.blob');
    }
  };
}

/** Folder counts: from the subject when it is the listing on screen, otherwise from its own listing. */
function FolderCounts({ item }: { item: InfoSubject }) {
  const { t } = useTranslation();
  const hasCounts = item.numDirs !== undefined && item.numFiles !== undefined;
  const listing = useQuery({
    queryKey: ['resource', item.path.endsWith('/') ? item.path : item.path + '/'],
    queryFn: ({ signal }) => fetchResource(item.path.endsWith('/') ? item.path : item.path + '/', signal),
    enabled: !hasCounts,
  });
  const counts = hasCounts ? item : listing.data;
  const locale = currentLocaleTag();
  const show = (value: number | undefined) => (value === undefined ? (listing.isError ? '—' : t('common.loading')) : value.toLocaleString(locale));
  return (
    <>
      <dt>{t('fileDialogs.info.folders')}</dt>
      <dd>{show(counts?.numDirs)}</dd>
      <dt>{t('fileDialogs.info.files')}</dt>
      <dd>{show(counts?.numFiles)}</dd>
    </>
  );
}

type Size = { width: number; height: number };

/**
 * The pixel size of a picture. The server leaves `resolution` empty, so the browser reads it from
 * the image itself: the size is known as soon as the header has arrived, and the rest of the
 * download is dropped then. Undefined while loading, null when the browser cannot decode it.
 */
function usePictureSize(path: string, known: Size | undefined, isWanted: boolean): Size | null | undefined {
  const [size, setSize] = useState<Size | null | undefined>(known);
  useEffect(() => {
    if (known || !isWanted) return;
    const image = new Image();
    const stop = () => {
      clearInterval(timer);
      image.onload = null;
      image.onerror = null;
      // Pointing the image elsewhere cancels what is left of the download.
      image.src = '';
    };
    const finish = (next: Size | null) => {
      stop();
      setSize(next);
    };
    const measured = () => (image.naturalWidth > 0 && image.naturalHeight > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : null);
    const timer = setInterval(() => {
      const next = measured();
      if (next) finish(next);
    }, 50);
    image.onload = () => finish(measured());
    image.onerror = () => finish(null);
    image.src = rawUrl(path, { inline: true });
    return stop;
  }, [path, known, isWanted]);
  return size;
}

function Resolution({ item, canDownload }: { item: InfoSubject; canDownload: boolean }) {
  const { t } = useTranslation();
  const size = usePictureSize(item.path, item.resolution, canDownload);
  if (size === null || (size === undefined && !canDownload)) return null;
  return (
    <>
      <dt>{t('fileDialogs.info.resolution')}</dt>
      <dd>{size ? `${size.width} × ${size.height}` : t('common.loading')}</dd>
    </>
  );
}

function Checksum({ path, algorithm }: { path: string; algorithm: ChecksumAlgorithm }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ kind: 'idle' | 'busy' } | { kind: 'done'; value: string } | { kind: 'failed'; message: string }>({ kind: 'idle' });
  const label = algorithm.toUpperCase();
  const calculate = async () => {
    setState({ kind: 'busy' });
    try {
      setState({ kind: 'done', value: await fetchChecksum(path, algorithm) });
    } catch (error) {
      setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <>
      <dt>{label}</dt>
      <dd className="info-checksum">
        {state.kind === 'done' ? (
          <code className="info-checksum__value" aria-label={t('fileDialogs.info.checksumOf', { algorithm: label })}>
            {state.value}
          </code>
        ) : (
          <button
            type="button"
            className="checksum-button"
            disabled={state.kind === 'busy'}
            onClick={() => void calculate()}
            aria-label={t('fileDialogs.info.calculateChecksum', { algorithm: label })}
          >
            {state.kind === 'busy' ? t('common.loading') : t('fileDialogs.info.calculate')}
          </button>
        )}
        {state.kind === 'failed' && (
          <span className="dialog-problem" role="alert">
            {state.message}
          </span>
        )}
      </dd>
    </>
  );
}

/** Details of the selection, or of the folder or file on screen when nothing is selected. */
export default function InfoDialog({ items, canDownload, onClose }: InfoDialogProps & DialogControls) {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  const locale = currentLocaleTag();
  const single = items.length === 1 ? items[0]! : undefined;
  const files = items.filter((item) => !item.isDir);
  const totalSize = files.reduce((sum, item) => sum + item.size, 0);

  let details;
  if (single) {
    const modified = new Date(single.modified);
    details = (
      <dl className="info-list">
        <dt>{t('fileDialogs.info.name')}</dt>
        <dd className="info-list__name">{single.name || t('files.home')}</dd>
        {!single.isDir && (
          <>
            <dt>{t('fileDialogs.info.size')}</dt>
            <dd>
              {formatSize(single.size, locale)}
              <span className="info-list__muted"> · {t('fileDialogs.info.bytes', { count: single.size, formatted: single.size.toLocaleString(locale) })}</span>
            </dd>
          </>
        )}
        <dt>{t('fileDialogs.info.type')}</dt>
        <dd>{typeLabel(single)}</dd>
        <dt>{t('fileDialogs.info.modified')}</dt>
        <dd>
          {Number.isNaN(modified.getTime()) ? (
            single.modified
          ) : (
            <time dateTime={single.modified} title={formatRelative(modified, locale)}>
              {formatAbsolute(modified, locale)}
            </time>
          )}
        </dd>
        {!single.isDir && (single.type === 'image' || single.resolution) && <Resolution item={single} canDownload={canDownload} />}
        {single.isDir && <FolderCounts item={single} />}
        {!single.isDir && canDownload && single.type !== 'invalid_link' && algorithms.map((algorithm) => <Checksum key={algorithm} path={single.path} algorithm={algorithm} />)}
      </dl>
    );
  } else {
    details = (
      <dl className="info-list">
        <dt>{t('fileDialogs.info.selected')}</dt>
        <dd>{groupDigits(t('listing.itemCount', { count: items.length }), items.length, locale)}</dd>
        <dt>{t('fileDialogs.info.folders')}</dt>
        <dd>{(items.length - files.length).toLocaleString(locale)}</dd>
        <dt>{t('fileDialogs.info.files')}</dt>
        <dd>{files.length.toLocaleString(locale)}</dd>
        <dt>{t('fileDialogs.info.filesSize')}</dt>
        <dd>{formatSize(totalSize, locale)}</dd>
      </dl>
    );
  }

  return (
    <DialogFrame
      title={t('fileDialogs.info.title')}
      onSubmit={onClose}
      actions={
        <button type="submit" className="button button--primary" data-autofocus>
          {t('fileDialogs.buttons.close')}
        </button>
      }
    >
      {details}
    </DialogFrame>
  );
}
