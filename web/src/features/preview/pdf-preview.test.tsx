import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PdfViewerCommand, PdfViewerEvent, PdfViewerLabels } from '../../pdf-viewer/messages';
import type { PdfFrameLabels } from '../../components/preview/pdf-frame';
import { PdfPreview } from './pdf-preview';

const viewerLabels: PdfViewerLabels = {
  toolbar: 'PDF controls',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageOf: 'Page {page} of {count}',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  fitWidth: 'Fit to width',
  zoom: 'Zoom',
  document: 'Document pages',
  loading: 'Loading PDF…',
  damaged: 'Damaged',
  encrypted: 'Locked',
  unavailable: 'Viewer unavailable',
};

const labels: PdfFrameLabels = {
  viewer: viewerLabels,
  progress: (received, total) => `${received} of ${total}`,
  loadFailed: (reason) => `Failed: ${reason}`,
  tooLarge: (limit) => `Over ${limit}`,
  size: 'Size',
  download: 'Download',
};

const PdfBytes = new TextEncoder().encode('%PDF-1.4 sample');

function renderFrame() {
  render(<PdfPreview url="/api/raw/docs/a.pdf?inline=true" downloadUrl="/api/raw/docs/a.pdf" name="a.pdf" labels={labels} />);
  const frame = document.querySelector('iframe')!;
  const posted = vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation(() => undefined);
  /** A message as if the given window had sent it. */
  const receive = (data: PdfViewerEvent, source: MessageEventSource = frame.contentWindow!) =>
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data, source }));
    });
  return { frame, posted, receive };
}

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(PdfBytes.slice(), { headers: { 'content-length': String(PdfBytes.length) } })));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PdfPreview', () => {
  it('is a frame sandboxed with scripts only, titled with the file name', () => {
    const { frame } = renderFrame();
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('title')).toBe('a.pdf');
    expect(frame.getAttribute('src')).toBe('/static/pdf-viewer.html');
    expect(screen.getByRole('status').textContent).toContain('Loading PDF…');
  });

  it('hands the bytes over, transferred, once the viewer is ready, and shows it when it has opened', async () => {
    const { frame, posted, receive } = renderFrame();
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledOnce());
    expect(posted).not.toHaveBeenCalled();
    receive({ type: 'ready' });
    await waitFor(() => expect(posted).toHaveBeenCalledOnce());
    const [message, targetOrigin, transfer] = posted.mock.calls[0] as unknown as [PdfViewerCommand, string, Transferable[]];
    expect(targetOrigin).toBe('*');
    expect(message.type).toBe('open');
    const open = message as Extract<PdfViewerCommand, { type: 'open' }>;
    expect([...new Uint8Array(open.data)]).toEqual([...PdfBytes]);
    expect(transfer).toEqual([open.data]);
    expect(open).toMatchObject({ name: 'a.pdf', labels: viewerLabels, theme: 'light', locale: 'en', direction: 'ltr' });
    expect(frame.closest('[data-status]')!.getAttribute('data-status')).toBe('opening');
    receive({ type: 'opened', pageCount: 3 });
    expect(frame.closest('[data-status]')!.getAttribute('data-status')).toBe('shown');
    expect(frame.className).not.toContain('waiting');
  });

  it('listens to its own frame only', async () => {
    const { frame, posted, receive } = renderFrame();
    const keys = vi.fn();
    document.addEventListener('keydown', keys);
    try {
      const stranger = new MessageChannel().port1;
      receive({ type: 'ready' }, window);
      receive({ type: 'key', key: 'ArrowRight', shiftKey: false }, window);
      receive({ type: 'opened', pageCount: 1 }, stranger);
      await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledOnce());
      expect(posted).not.toHaveBeenCalled();
      expect(keys).not.toHaveBeenCalled();
      expect(frame.closest('[data-status]')!.getAttribute('data-status')).toBe('downloading');

      // From the frame, stepping keys are replayed here for the preview's own handling.
      receive({ type: 'key', key: 'ArrowRight', shiftKey: false });
      receive({ type: 'key', key: 'Home' as 'Escape', shiftKey: false });
      receive({ type: 'key', key: 'Delete', shiftKey: false });
      expect(keys).toHaveBeenCalledTimes(2);
      const events = keys.mock.calls.map(([event]) => event as KeyboardEvent);
      expect(events.map((event) => [event.key, event.target === frame, event.cancelable])).toEqual([
        ['ArrowRight', true, true],
        ['Delete', true, true],
      ]);
    } finally {
      document.removeEventListener('keydown', keys);
    }
  });

  it("shows the viewer's failure in the frame, and a failed download in the preview", async () => {
    const { frame, receive } = renderFrame();
    receive({ type: 'ready' });
    receive({ type: 'failed', reason: 'damaged' });
    expect(frame.closest('[data-status]')!.getAttribute('data-status')).toBe('failed');
    expect(frame.className).not.toContain('waiting');

    document.body.innerHTML = '';
    vi.stubGlobal('fetch', vi.fn(async () => new Response('403 Forbidden\n', { status: 403 })));
    renderFrame();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed: 403 Forbidden');
  });
});
