/**
 * The messages between the app's PDF preview (the parent) and the viewer page in its sandboxed,
 * opaque-origin frame. Types only: the app imports nothing of the viewer at run time.
 */

export type PdfViewerTheme = 'light' | 'dark';

/** Everything the viewer says, already translated by the parent. */
export type PdfViewerLabels = {
  toolbar: string;
  previousPage: string;
  nextPage: string;
  /**
   * "Page {page} of {count}", the position shown in the bar and each page's accessible name:
   * `{page}` and `{count}` are filled in by the viewer.
   */
  pageOf: string;
  zoomIn: string;
  zoomOut: string;
  fitWidth: string;
  /** The zoom level's accessible name. */
  zoom: string;
  /** The scrolling area holding the pages. */
  document: string;
  loading: string;
  /** The file is not a readable PDF. */
  damaged: string;
  /** The file needs a password. */
  encrypted: string;
  /** The viewer's worker could not start. */
  unavailable: string;
};

/** Parent → viewer. */
export type PdfViewerCommand =
  | {
      type: 'open';
      /** The whole file, transferred (the parent keeps no copy). */
      data: ArrayBuffer;
      name: string;
      labels: PdfViewerLabels;
      theme: PdfViewerTheme;
      /** BCP 47 tag for numbers and the text direction. */
      locale: string;
      direction: 'ltr' | 'rtl';
    }
  | { type: 'theme'; theme: PdfViewerTheme };

/** Keys the viewer hands back to the preview: file stepping, closing and deleting. */
export type PdfViewerForwardedKey = 'ArrowLeft' | 'ArrowRight' | 'Escape' | 'Delete';

/** Viewer → parent. */
export type PdfViewerEvent =
  | { type: 'ready' }
  | { type: 'opened'; pageCount: number }
  | { type: 'failed'; reason: 'damaged' | 'encrypted' | 'unavailable' }
  | { type: 'key'; key: PdfViewerForwardedKey; shiftKey: boolean };
