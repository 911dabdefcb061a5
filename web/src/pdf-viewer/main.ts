import { getDocument, GlobalWorkerOptions, type PDFDocumentLoadingTask } from 'pdfjs-dist';
import { BundledDataFactory } from './bundled-data';
import { DocumentView, type DocumentViewState } from './document-view';
import type { PdfViewerCommand, PdfViewerEvent, PdfViewerForwardedKey, PdfViewerLabels, PdfViewerTheme } from './messages';
import { startPdfWorker } from './pdf-worker';
import { fillLabel, Toolbar } from './toolbar';
import { MaxZoom, MinZoom, zoomIn, zoomOut } from './zoom';
import './pdf-viewer.css';

/*
 * The PDF viewer page. It runs in the preview's frame with an opaque origin (sandboxed without
 * `allow-same-origin`), so neither it nor the document reaches the app, its storage or its token.
 * The app hands over the file's bytes and the translated labels by message; the viewer answers
 * with its state and with the keys that belong to the preview (file stepping, closing).
 */

const embedded = window.parent !== window;

function send(message: PdfViewerEvent): void {
  // The parent is the app (the page's policy allows no other frame ancestor); the opaque origin
  // leaves no origin to name, and nothing sent here is private.
  if (embedded) window.parent.postMessage(message, '*');
}

// Started at once: fetching and starting the parser overlaps the app's download of the file.
const worker = startPdfWorker();
worker.catch(() => undefined);

const LabelNames = [
  'toolbar', 'previousPage', 'nextPage', 'pageOf', 'zoomIn', 'zoomOut', 'fitWidth', 'zoom', 'document', 'loading', 'damaged', 'encrypted', 'unavailable',
] as const satisfies readonly (keyof PdfViewerLabels)[];

function isTheme(value: unknown): value is PdfViewerTheme {
  return value === 'light' || value === 'dark';
}

/** The parent's message, when it is a well-formed command; anything else is ignored. */
function readCommand(data: unknown): PdfViewerCommand | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Record<string, unknown>;
  if (message.type === 'theme') return isTheme(message.theme) ? { type: 'theme', theme: message.theme } : undefined;
  if (message.type !== 'open' || !(message.data instanceof ArrayBuffer) || !isTheme(message.theme)) return undefined;
  const labels = message.labels as Record<string, unknown> | null | undefined;
  if (typeof labels !== 'object' || labels === null || !LabelNames.every((name) => typeof labels[name] === 'string')) return undefined;
  return {
    type: 'open',
    data: message.data,
    name: typeof message.name === 'string' ? message.name : '',
    labels: Object.fromEntries(LabelNames.map((name) => [name, labels[name]])) as PdfViewerLabels,
    theme: message.theme,
    locale: typeof message.locale === 'string' ? message.locale : 'en',
    direction: message.direction === 'rtl' ? 'rtl' : 'ltr',
  };
}

function applyTheme(theme: PdfViewerTheme): void {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

let current: { view?: DocumentView; task: PDFDocumentLoadingTask } | undefined;

function showMessage(container: HTMLElement, text: string, isError: boolean): void {
  const message = document.createElement('p');
  message.className = isError ? 'message message--error' : 'message';
  if (isError) message.setAttribute('role', 'alert');
  message.textContent = text;
  container.replaceChildren(message);
}

function failureOf(error: unknown): 'damaged' | 'encrypted' {
  return error instanceof Error && error.name === 'PasswordException' ? 'encrypted' : 'damaged';
}

async function open(command: Extract<PdfViewerCommand, { type: 'open' }>): Promise<void> {
  if (current) {
    current.view?.destroy();
    void current.task.destroy();
    current = undefined;
  }
  const { labels } = command;
  applyTheme(command.theme);
  document.documentElement.lang = command.locale;
  document.documentElement.dir = command.direction;
  if (command.name) document.title = command.name;

  const root = document.getElementById('viewer')!;
  const scroller = document.createElement('div');
  scroller.className = 'pages';
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', labels.document);
  root.replaceChildren(scroller);
  showMessage(scroller, labels.loading, false);

  try {
    GlobalWorkerOptions.workerPort ??= await worker;
  } catch (error) {
    console.error(error);
    showMessage(scroller, labels.unavailable, true);
    send({ type: 'failed', reason: 'unavailable' });
    return;
  }

  const task = getDocument({
    data: new Uint8Array(command.data),
    // Nothing in the document runs: no JavaScript built from it, no XFA forms.
    isEvalSupported: false,
    enableXfa: false,
    // Data files come from the bundle through this page, not from a folder URL in the worker.
    useWorkerFetch: false,
    BinaryDataFactory: BundledDataFactory,
  });
  const state: { view?: DocumentView; task: PDFDocumentLoadingTask } = { task };
  current = state;
  let pdf;
  try {
    pdf = await task.promise;
  } catch (error) {
    if (current !== state) return;
    const reason = failureOf(error);
    showMessage(scroller, labels[reason], true);
    send({ type: 'failed', reason });
    return;
  }
  if (current !== state) return;

  const numbers = new Intl.NumberFormat(command.locale);
  let view: DocumentView | undefined;
  const toolbar = new Toolbar(labels, command.locale, {
    previousPage: () => view && view.goToPage(view.state.page - 1),
    nextPage: () => view && view.goToPage(view.state.page + 1),
    zoomOut: () => view && view.setZoom(zoomOut(view.state.zoom)),
    zoomIn: () => view && view.setZoom(zoomIn(view.state.zoom)),
    fitWidth: () => view?.setZoom('fit'),
  });
  root.prepend(toolbar.element);
  const update = (viewState: DocumentViewState) =>
    toolbar.update(viewState, { isMinZoom: viewState.zoom <= MinZoom + 0.0005, isMaxZoom: viewState.zoom >= MaxZoom - 0.0005 });
  try {
    const count = numbers.format(pdf.numPages);
    view = await DocumentView.create(pdf, scroller, (page) => fillLabel(labels.pageOf, { page: numbers.format(page), count }), update);
  } catch (error) {
    if (current !== state) return;
    toolbar.element.remove();
    showMessage(scroller, labels.damaged, true);
    send({ type: 'failed', reason: failureOf(error) });
    return;
  }
  state.view = view;
  update(view.state);
  send({ type: 'opened', pageCount: view.state.pageCount });
}

const ForwardedKeys = new Set<string>(['ArrowLeft', 'ArrowRight', 'Escape', 'Delete'] satisfies PdfViewerForwardedKey[]);

/** Keys that scroll the pages, with the distance they scroll. */
function scrollDistance(key: string, scroller: HTMLElement): number | undefined {
  const line = 40;
  const screen = scroller.clientHeight * 0.9;
  switch (key) {
    case 'ArrowDown':
      return line;
    case 'ArrowUp':
      return -line;
    case 'PageDown':
      return screen;
    case 'PageUp':
      return -screen;
    case 'Home':
      return -scroller.scrollHeight;
    case 'End':
      return scroller.scrollHeight;
    default:
      return undefined;
  }
}

window.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (ForwardedKeys.has(event.key)) {
    // File stepping, closing and deleting belong to the preview around the frame.
    event.preventDefault();
    send({ type: 'key', key: event.key as PdfViewerForwardedKey, shiftKey: event.shiftKey });
    return;
  }
  const view = current?.view;
  if (!view) return;
  if (event.key === '+' || event.key === '=') {
    event.preventDefault();
    view.setZoom(zoomIn(view.state.zoom));
    return;
  }
  if (event.key === '-') {
    event.preventDefault();
    view.setZoom(zoomOut(view.state.zoom));
    return;
  }
  // The scrolling area handles these itself when it has the focus; from the toolbar (or with
  // nothing focused) they still move through the document.
  const scroller = document.querySelector<HTMLElement>('.pages');
  if (!scroller || event.target === scroller) return;
  const distance = scrollDistance(event.key, scroller);
  if (distance === undefined) return;
  event.preventDefault();
  scroller.scrollBy({ top: distance });
});

window.addEventListener('message', (event) => {
  // Only the app around the frame gives commands.
  if (!embedded || event.source !== window.parent) return;
  const command = readCommand(event.data);
  if (!command) return;
  if (command.type === 'theme') applyTheme(command.theme);
  else void open(command);
});

send({ type: 'ready' });
