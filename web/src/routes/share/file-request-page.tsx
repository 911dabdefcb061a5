import type { FileRequestInfo } from '@burrow/protocol';
import { useQuery } from '../../lib/query';
import { CircleAlert, CircleCheck, Inbox, UploadCloud } from 'lucide-react';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf, isApiError } from '../../api/api-error';
import { fetchFileRequest, fileRequestEndpoint, fileRequestHeaders } from '../../api/file-requests';
import { ErrorScreen } from '../../components/errors/error-screen';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatSize } from '../../lib/format-size';
import { startTusTransfer } from '../../lib/upload/tus-transport';
import { UploadQueue, type UploadJob } from '../../lib/upload/upload-queue';
import { percentOf } from '../../lib/upload/speed';
import { useAppSettings } from '../../stores/app-settings-store';
import { usePageTitle } from '../use-page-title';
import { SharePasswordForm } from './share-password-form';
import type { PasswordState } from './use-public-share';
import './file-request-page.css';

type Prompt = 'none' | 'ask' | 'wrong' | 'throttled';
type FileStatus = 'pending' | 'active' | 'done' | 'failed';
type FileRow = { id: number; name: string; size: number; sent: number; status: FileStatus; error?: string };

/** Retries when the settings give none (a visitor's page always has them, but be safe). */
const FallbackTus = { chunkSize: 0, retryCount: 5 };

let nextId = 1;

/** The note, limits, drop zone and per-file results of an upload-only link. */
function FileRequestView({ hash, info, password, onChanged }: { hash: string; info: FileRequestInfo; password: string | undefined; onChanged: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocaleTag();
  const tus = useAppSettings((state) => state.settings.TusSettings) ?? FallbackTus;
  const [rows, setRows] = useState<FileRow[]>([]);
  const [isDragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const queueRef = useRef<UploadQueue | undefined>(undefined);

  const update = (id: number, change: Partial<FileRow>) => setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));

  if (!queueRef.current) {
    queueRef.current = new UploadQueue({
      concurrency: 3,
      start: (job: UploadJob, onProgress) =>
        startTusTransfer(job, tus, fileRequestEndpoint(hash), () => null, onProgress, {
          headers: fileRequestHeaders(password),
          metadata: { filename: job.path, filetype: (job.file as File).type || 'application/octet-stream' },
          // There is nothing to delete for an uploader: an abandoned upload expires on the server.
          terminateOnAbort: false,
        }),
      onStart: (job) => update(job.id, { status: 'active' }),
      onProgress: (job, sent) => update(job.id, { sent }),
      onSettled: (job, error) =>
        update(job.id, error === undefined ? { status: 'done', sent: job.size } : { status: 'failed', error: error instanceof Error ? error.message : String(error) }),
      onIdle: onChanged,
    });
  }
  useEffect(() => {
    const queue = queueRef.current;
    return () => void queue?.abortAll();
  }, []);

  const addFiles = (files: FileList | File[]) => {
    const list = [...files];
    if (!list.length) return;
    const jobs: UploadJob[] = [];
    const added: FileRow[] = [];
    for (const file of list) {
      const id = nextId++;
      const row: FileRow = { id, name: file.name, size: file.size, sent: 0, status: 'pending' };
      if (info.maxFileSize > 0 && file.size > info.maxFileSize) {
        added.push({ ...row, status: 'failed', error: t('share.request.tooLarge', { size: formatSize(info.maxFileSize, locale) }) });
        continue;
      }
      added.push(row);
      jobs.push({ id, path: file.name, file, size: file.size, override: false });
    }
    setRows((current) => [...added, ...current]);
    queueRef.current!.add(jobs);
  };

  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  const running = rows.filter((row) => row.status === 'pending' || row.status === 'active');
  const done = rows.filter((row) => row.status === 'done').length;
  const failed = rows.filter((row) => row.status === 'failed').length;
  const total = running.reduce((sum, row) => sum + row.size, 0);
  const sent = running.reduce((sum, row) => sum + row.sent, 0);
  const summary = running.length
    ? t('share.request.progress', { count: running.length, percent: percentOf(sent, total) })
    : rows.length
      ? t('share.request.summary', { done, failed })
      : '';

  const limits: string[] = [];
  if (info.maxFileSize > 0) limits.push(t('share.request.limitFile', { size: formatSize(info.maxFileSize, locale) }));
  if (info.remainingBytes !== undefined) limits.push(t('share.request.limitTotal', { size: formatSize(info.remainingBytes, locale) }));
  if (info.remainingFiles !== undefined) limits.push(t('share.request.limitCount', { count: info.remainingFiles }));

  return (
    <section className="file-request card" aria-labelledby={titleId}>
      <div className="file-request__head">
        <Inbox className="file-request__icon" aria-hidden="true" size={32} strokeWidth={1.6} />
        <div>
          <h1 id={titleId} className="file-request__title">
            {t('share.request.title', { name: info.name })}
          </h1>
          <p className="file-request__description">{t('share.request.description')}</p>
        </div>
      </div>
      {info.note && (
        <figure className="file-request__note">
          <figcaption className="file-request__note-label">{t('share.request.noteLabel')}</figcaption>
          <blockquote>{info.note}</blockquote>
        </figure>
      )}
      {limits.length > 0 && (
        <ul className="file-request__limits" aria-label={t('share.request.limits')}>
          {limits.map((limit) => (
            <li key={limit}>{limit}</li>
          ))}
        </ul>
      )}
      <div
        className="file-request__drop"
        data-dragging={isDragging || undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={handleDrop}
      >
        <UploadCloud className="file-request__drop-icon" aria-hidden="true" size={40} strokeWidth={1.4} />
        <p className="file-request__drop-text">{t('share.request.dropHere')}</p>
        <button type="button" className="button button--primary" onClick={() => inputRef.current?.click()}>
          {t('share.request.choose')}
        </button>
        <input
          ref={inputRef}
          className="visually-hidden"
          type="file"
          multiple
          tabIndex={-1}
          aria-hidden="true"
          data-testid="file-request-input"
          onChange={(event) => {
            if (event.target.files) addFiles(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      <p className="file-request__status" role="status" aria-live="polite">
        {summary}
      </p>
      {rows.length > 0 && (
        <ul className="file-request__files" aria-label={t('share.request.files')}>
          {rows.map((row) => (
            <li key={row.id} className={`file-request__file file-request__file--${row.status}`}>
              <span className="file-request__file-name" title={row.name}>
                {row.status === 'done' && <CircleCheck aria-hidden="true" size={16} />}
                {row.status === 'failed' && <CircleAlert aria-hidden="true" size={16} />}
                {row.name}
              </span>
              <span className="file-request__file-state">
                {row.status === 'done'
                  ? t('share.request.sent')
                  : row.status === 'failed'
                    ? row.error || t('share.request.failed')
                    : row.status === 'pending'
                      ? t('share.request.waiting')
                      : `${percentOf(row.sent, row.size)}%`}
              </span>
              <progress className="file-request__bar" max={Math.max(1, row.size)} value={row.status === 'done' ? Math.max(1, row.size) : row.sent} aria-label={row.name} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The public page of an upload-only link (a file request): asks for the password when the link
 * has one, then offers the drop zone. A link that is neither a share nor a file request is a 404.
 */
export function FileRequestPage({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState<string>();
  // Each submission asks again, even with the same password as before.
  const [attempt, setAttempt] = useState(0);
  const [prompt, setPrompt] = useState<Prompt>('none');
  const query = useQuery<FileRequestInfo>({
    queryKey: ['file-request', hash, password, attempt],
    retry: false,
    queryFn: async ({ signal }) => {
      try {
        const info = await fetchFileRequest(hash, password, signal);
        setPrompt('none');
        return info;
      } catch (error) {
        const code = isApiError(error) ? error.code : undefined;
        if (code === 'unauthorized') setPrompt(password === undefined ? 'ask' : 'wrong');
        else if (code === 'too_many_requests') setPrompt('throttled');
        throw error;
      }
    },
  });
  usePageTitle(query.data ? t('share.request.title', { name: query.data.name }) : t('titles.share'));

  // Kept while the next answer is awaited, so the drop zone does not flicker after each batch.
  const [shown, setShown] = useState<FileRequestInfo>();
  useEffect(() => {
    if (query.data) setShown(query.data);
  }, [query.data]);

  const passwordState: PasswordState = {
    isRequired: prompt !== 'none' && !shown,
    isWrong: prompt === 'wrong' && !query.isFetching,
    isThrottled: prompt === 'throttled' && !query.isFetching,
    isChecking: query.isFetching,
    submit: (value) => {
      setPassword(value);
      setAttempt((count) => count + 1);
    },
  };

  if (shown) return <FileRequestView hash={hash} info={shown} password={password} onChanged={() => void query.refetch()} />;
  if (passwordState.isRequired) return <SharePasswordForm state={passwordState} />;
  if (query.isError) return <ErrorScreen code={errorCodeOf(query.error)} />;
  return (
    <div className="share-page__loading" role="status">
      <div className="spinner" aria-hidden="true" />
      <span>{t('common.loading')}</span>
    </div>
  );
}
