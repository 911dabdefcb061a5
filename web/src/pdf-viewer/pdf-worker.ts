import workerScript from 'pdfjs-dist/build/pdf.worker.min.mjs?url&no-inline';

/** How long the parser may take to start before the viewer gives up. */
const StartTimeout = 30_000;

/**
 * pdf.js's worker is an ES module, but Chromium does not start module workers from blob: URLs in
 * an opaque-origin document (classic ones it does). The module has no imports: it becomes a
 * classic script once its one export is dropped and `import.meta.url` (the base for its decoders'
 * own downloads, which this viewer never lets it make) reads the worker's location instead.
 */
export function asClassicWorker(module: string): string {
  const script = module.replace(/\bimport\.meta\.url\b/g, 'self.location.href').replace(/\bexport\s*\{\s*WorkerMessageHandler\s*\}\s*;?\s*$/, '');
  if (/\bimport\.meta\b|\bexport\s*\{|^\s*import\s[^(]/m.test(script)) throw new Error('the PDF worker script is not a self-contained module');
  return script;
}

/**
 * Starts pdf.js's parser in a worker. The page has an opaque origin, and a worker cannot be
 * started from a script of another origin, so the script is fetched (a CORS request the server
 * allows for hashed assets) and started from a blob: URL of this page's own. Resolves once the
 * worker has said it is ready; rejects when it fails to load or start.
 */
export async function startPdfWorker(): Promise<Worker> {
  const response = await fetch(new URL(workerScript, import.meta.url), { credentials: 'omit' });
  if (!response.ok) throw new Error(`the PDF worker script answered ${response.status}`);
  const blobUrl = URL.createObjectURL(new Blob([asClassicWorker(await response.text())], { type: 'text/javascript' }));
  try {
    const worker = new Worker(blobUrl, { name: 'pdf.js' });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('the PDF worker did not start')), StartTimeout);
      const stop = () => {
        clearTimeout(timer);
        worker.removeEventListener('message', handleMessage);
        worker.removeEventListener('error', handleError);
      };
      const fail = (error: Error) => {
        stop();
        worker.terminate();
        reject(error);
      };
      // pdf.js's first message from a started worker: `{ action: 'ready' }`.
      const handleMessage = (event: MessageEvent) => {
        if ((event.data as { action?: unknown } | null)?.action !== 'ready') return;
        stop();
        resolve();
      };
      const handleError = (event: ErrorEvent) => {
        event.preventDefault();
        fail(new Error(event.message || 'the PDF worker failed to start'));
      };
      worker.addEventListener('message', handleMessage);
      worker.addEventListener('error', handleError);
    });
    return worker;
  } finally {
    // The worker has its script; the URL is not needed any more.
    URL.revokeObjectURL(blobUrl);
  }
}
