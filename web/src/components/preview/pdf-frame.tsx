import { FileText } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocaleTag } from '../../i18n/i18n';
import { findLanguage } from '../../i18n/languages';
import { formatSize } from '../../lib/format-size';
import type { PdfViewerCommand, PdfViewerEvent, PdfViewerForwardedKey, PdfViewerLabels, PdfViewerTheme } from '../../pdf-viewer/messages';
import { useAppSettings } from '../../stores/app-settings-store';
import { FileCard } from './file-card';
import './pdf-frame.css';

/** What the frame and the viewer in it say, translated by the preview that shows them. */
export type PdfFrameLabels = {
  viewer: PdfViewerLabels;
  /** "12 MB of 40 MB". */
  progress: (received: string, total: string) => string;
  loadFailed: (reason: string) => string;
  tooLarge: (limit: string) => string;
  size: string;
  download: string;
};

export type PdfProgress = { received: number; total?: number };

/**
 * What loading the file's bytes came to: the bytes, a file over `limit` bytes (not read
 * further), or a request cancelled elsewhere (nothing to show).
 */
export type PdfLoadResult = { kind: 'data'; data: ArrayBuffer } | { kind: 'tooLarge'; size: number } | { kind: 'cancelled' };

/** Fetches the file's bytes, reporting progress; rejects with the reason it could not. */
export type PdfLoader = (options: { signal: AbortSignal; onProgress: (progress: PdfProgress) => void }) => Promise<PdfLoadResult>;

/** After the frame has loaded, how long the viewer may take to say it is there. */
const ReadyGrace = 5000;

/** Keys the viewer hands back: the preview steps, closes and deletes with them. */
const ForwardedKeys = new Set<string>(['ArrowLeft', 'ArrowRight', 'Escape', 'Delete'] satisfies PdfViewerForwardedKey[]);

type Status =
  | { phase: 'downloading'; progress?: PdfProgress }
  | { phase: 'opening' }
  | { phase: 'shown' }
  /** The viewer shows why it cannot display the file. */
  | { phase: 'failed' }
  /** The viewer did not start. */
  | { phase: 'unavailable' }
  | { phase: 'error'; message: string }
  | { phase: 'tooLarge'; size: number };

function currentTheme(): PdfViewerTheme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

function isViewerEvent(data: unknown): data is PdfViewerEvent {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}

/**
 * A PDF shown by the app's own viewer (pdf.js) in a frame sandboxed with `allow-scripts` only.
 * The frame has an opaque origin, so nothing in it (the document, the viewer, a flaw in either)
 * can reach the app's DOM, storage, cookies or token; the viewer page's policy also sandboxes it
 * when opened directly. The browser's built-in viewer cannot be used for this: Chromium refuses to
 * run it in any sandboxed frame. The app downloads the file itself, with progress, and hands the
 * bytes over by message; the viewer hands back the keys that step through files, close and delete.
 */
type PdfFrameProps = {
  /** Loads the file's bytes; a new loader loads again. */
  load: PdfLoader;
  /** The size the loader stops at, told when a file is larger. */
  sizeLimit: number;
  downloadUrl: string;
  name: string;
  labels: PdfFrameLabels;
};

export function PdfFrame({ load, sizeLimit, downloadUrl, name, labels }: PdfFrameProps) {
  const { i18n } = useTranslation();
  const staticUrl = useAppSettings((state) => state.settings.StaticURL);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [status, setStatus] = useState<Status>({ phase: 'downloading' });
  const [data, setData] = useState<ArrayBuffer>();
  const [isFrameReady, setFrameReady] = useState(false);
  const readyRef = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    let frame = 0;
    let latest: PdfProgress | undefined;
    load({
      signal: controller.signal,
      // One state update per animation frame, however small the network's pieces.
      onProgress: (progress) => {
        latest = progress;
        frame ||= requestAnimationFrame(() => {
          frame = 0;
          setStatus((current) => (current.phase === 'downloading' ? { phase: 'downloading', progress: latest } : current));
        });
      },
    }).then(
      (result) => {
        cancelAnimationFrame(frame);
        if (result.kind === 'cancelled') return;
        if (result.kind === 'tooLarge') setStatus({ phase: 'tooLarge', size: result.size });
        else setData(result.data);
      },
      (error: unknown) => {
        cancelAnimationFrame(frame);
        if (controller.signal.aborted) return;
        setStatus({ phase: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      controller.abort();
      cancelAnimationFrame(frame);
    };
  }, [load]);

  const post = useCallback((message: PdfViewerCommand, transfer: Transferable[] = []) => {
    // The frame's origin is opaque: there is no origin to name, so '*'. Only what the viewer
    // needs is sent; it is checked there to come from this window.
    frameRef.current?.contentWindow?.postMessage(message, '*', transfer);
  }, []);

  useEffect(() => {
    const handleMessage = (event: MessageEvent) => {
      const frame = frameRef.current;
      if (!frame || event.source !== frame.contentWindow || !isViewerEvent(event.data)) return;
      const message = event.data;
      switch (message.type) {
        case 'ready':
          readyRef.current = true;
          setFrameReady(true);
          break;
        case 'opened':
          setStatus({ phase: 'shown' });
          break;
        case 'failed':
          setStatus({ phase: message.reason === 'unavailable' ? 'unavailable' : 'failed' });
          break;
        case 'key':
          // Replayed as if pressed here, for the preview's own key handling (stepping, closing, deleting).
          if (ForwardedKeys.has(message.key)) {
            frame.dispatchEvent(new KeyboardEvent('keydown', { key: message.key, shiftKey: message.shiftKey === true, bubbles: true, cancelable: true }));
          }
          break;
      }
    };
    window.addEventListener('message', handleMessage);
    return () => window.removeEventListener('message', handleMessage);
  }, []);

  // Both the viewer and the bytes are there: hand the file over (transferred, not copied).
  useEffect(() => {
    if (!isFrameReady || !data) return;
    post(
      {
        type: 'open',
        data,
        name,
        labels: { ...labels.viewer },
        theme: currentTheme(),
        locale: currentLocaleTag(),
        direction: findLanguage(i18n.language).rtl ? 'rtl' : 'ltr',
      },
      [data],
    );
    setData(undefined);
    setStatus({ phase: 'opening' });
  }, [isFrameReady, data, name, post, labels.viewer, i18n.language]);

  // The viewer follows the app's theme while it is open.
  useEffect(() => {
    if (!isFrameReady) return;
    const observer = new MutationObserver(() => post({ type: 'theme', theme: currentTheme() }));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, [isFrameReady, post]);

  const loadTimer = useRef(0);
  useEffect(() => () => window.clearTimeout(loadTimer.current), []);
  const handleLoad = () => {
    // A viewer page that loaded but never spoke (a failed script) would leave the preview waiting.
    window.clearTimeout(loadTimer.current);
    loadTimer.current = window.setTimeout(() => {
      if (!readyRef.current) setStatus({ phase: 'unavailable' });
    }, ReadyGrace);
  };

  if (status.phase === 'tooLarge') {
    const locale = currentLocaleTag();
    return (
      <div className="media-player media-player--pdf pdf-frame__card">
        <FileCard
          name={name}
          icon={<FileText size={56} strokeWidth={1.25} />}
          message={labels.tooLarge(formatSize(sizeLimit, locale))}
          details={[{ label: labels.size, value: formatSize(status.size, locale) }]}
          download={{ url: downloadUrl, label: labels.download }}
        />
      </div>
    );
  }

  const isBusy = status.phase === 'downloading' || status.phase === 'opening';
  const progress = status.phase === 'downloading' ? status.progress : undefined;
  const problem = status.phase === 'error' ? labels.loadFailed(status.message) : status.phase === 'unavailable' ? labels.viewer.unavailable : undefined;
  const locale = currentLocaleTag();

  return (
    <div className="media-player media-player--pdf" data-status={status.phase}>
      <iframe
        ref={frameRef}
        // Laid out while waiting (only invisible), so the viewer sizes the pages to the real width.
        className={isBusy || problem !== undefined ? 'media-player__frame media-player__frame--waiting' : 'media-player__frame'}
        src={`${staticUrl}/pdf-viewer.html`}
        title={name}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        onLoad={handleLoad}
      />
      {isBusy && (
        <div className="pdf-frame__status" role="status">
          <p className="pdf-frame__label">{labels.viewer.loading}</p>
          <progress
            className="pdf-frame__progress"
            aria-label={labels.viewer.loading}
            max={progress?.total || undefined}
            value={progress?.total ? progress.received : undefined}
          />
          {progress && progress.received > 0 && (
            <p className="pdf-frame__amount">
              {progress.total
                ? labels.progress(formatSize(progress.received, locale), formatSize(progress.total, locale))
                : formatSize(progress.received, locale)}
            </p>
          )}
        </div>
      )}
      {problem && (
        <p className="pdf-frame__problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
