import { AnnotationMode, RenderingCancelledException, TextLayer, type PDFDocumentProxy, type PDFPageProxy, type PageViewport, type RenderTask } from 'pdfjs-dist';
import { clampZoom, CssUnitsPerPoint, fitWidthZoom, MaxAutoZoom, outputScale, pageAt } from './zoom';

/** A canvas never holds more pixels than this (about 64 MB at four bytes each). */
const MaxCanvasPixels = 16 * 1024 * 1024;
/** Gap around and between pages, in CSS pixels (matches the stylesheet). */
const PageGap = 12;

/** `auto` fits the width up to a comfortable size, `fit` fits the width whatever it is. */
export type ZoomMode = 'auto' | 'fit' | number;

export type DocumentViewState = { page: number; pageCount: number; zoom: number };

type PageSlot = {
  number: number;
  element: HTMLDivElement;
  /** Width and height at zoom 1, in CSS pixels; the first page's until this page is read. */
  size: { width: number; height: number };
  isMeasured: boolean;
  proxy?: PDFPageProxy;
  canvas?: HTMLCanvasElement;
  textLayer?: TextLayer;
  textElement?: HTMLDivElement;
  task?: RenderTask;
  /** The zoom the current canvas was drawn at. */
  renderedZoom?: number;
  /** Bumped whenever a render starts or the page is released, so stale renders drop out. */
  generation: number;
};

/**
 * A PDF as a column of pages in a scrolling area. Only pages near the visible part are drawn
 * (an IntersectionObserver tells which), each to a canvas at the screen's pixel density with a
 * transparent text layer on top for selecting and copying; pages scrolled far away give their
 * canvas back. Nothing interactive of the document is shown: no links, forms or scripts.
 */
export class DocumentView {
  readonly #document: PDFDocumentProxy;
  readonly #scroller: HTMLElement;
  readonly #pageLabel: (page: number) => string;
  readonly #onChange: (state: DocumentViewState) => void;
  readonly #slots: PageSlot[] = [];
  readonly #near = new Set<PageSlot>();
  readonly #observer: IntersectionObserver;
  readonly #resizeObserver: ResizeObserver;
  #mode: ZoomMode = 'auto';
  #zoom = 1;
  #currentPage = 1;
  #scrollFrame = 0;
  #destroyed = false;

  private constructor(document: PDFDocumentProxy, scroller: HTMLElement, firstPage: PDFPageProxy, pageLabel: (page: number) => string, onChange: (state: DocumentViewState) => void) {
    this.#document = document;
    this.#scroller = scroller;
    this.#pageLabel = pageLabel;
    this.#onChange = onChange;
    const firstSize = sizeOf(firstPage);
    const fragment = window.document.createDocumentFragment();
    for (let number = 1; number <= document.numPages; number += 1) {
      const element = window.document.createElement('div');
      element.className = 'page';
      element.dataset.page = String(number);
      const slot: PageSlot = { number, element, size: number === 1 ? firstSize : { ...firstSize }, isMeasured: number === 1, generation: 0 };
      if (number === 1) slot.proxy = firstPage;
      this.#slots.push(slot);
      fragment.append(element);
    }
    scroller.replaceChildren(fragment);
    // One screen ahead above and below, so scrolling rarely reaches a page still being drawn.
    this.#observer = new IntersectionObserver((entries) => this.#handleIntersections(entries), { root: scroller, rootMargin: '100% 0px' });
    for (const slot of this.#slots) this.#observer.observe(slot.element);
    this.#resizeObserver = new ResizeObserver(() => {
      if (this.#mode === 'auto' || this.#mode === 'fit') this.#applyZoom();
    });
    this.#resizeObserver.observe(scroller);
    scroller.addEventListener('scroll', this.#handleScroll, { passive: true });
    this.#applyZoom();
  }

  static async create(document: PDFDocumentProxy, scroller: HTMLElement, pageLabel: (page: number) => string, onChange: (state: DocumentViewState) => void): Promise<DocumentView> {
    const firstPage = await document.getPage(1);
    return new DocumentView(document, scroller, firstPage, pageLabel, onChange);
  }

  get state(): DocumentViewState {
    return { page: this.#currentPage, pageCount: this.#slots.length, zoom: this.#zoom };
  }

  setZoom(mode: ZoomMode): void {
    this.#mode = typeof mode === 'number' ? clampZoom(mode) : mode;
    this.#applyZoom();
  }

  goToPage(number: number): void {
    const slot = this.#slots[Math.min(this.#slots.length, Math.max(1, Math.round(number))) - 1];
    if (!slot) return;
    this.#scroller.scrollTo({ top: slot.element.offsetTop - PageGap });
    this.#updateCurrentPage();
  }

  destroy(): void {
    this.#destroyed = true;
    this.#observer.disconnect();
    this.#resizeObserver.disconnect();
    this.#scroller.removeEventListener('scroll', this.#handleScroll);
    cancelAnimationFrame(this.#scrollFrame);
    for (const slot of this.#slots) this.#release(slot);
  }

  /** The zoom the current mode means for the scrolling area's present width. */
  #targetZoom(): number {
    if (typeof this.#mode === 'number') return this.#mode;
    const first = this.#slots[0];
    // Leave the gaps, and room for a vertical scroll bar, beside the page.
    const available = this.#scroller.clientWidth - 2 * PageGap;
    const fit = fitWidthZoom(available, (first?.size.width ?? 0) / CssUnitsPerPoint);
    return this.#mode === 'auto' ? Math.min(fit, MaxAutoZoom) : fit;
  }

  #applyZoom(): void {
    const zoom = this.#targetZoom();
    if (Math.abs(zoom - this.#zoom) < 0.0005 && this.#slots[0]?.element.style.width) return;
    // Keep the same spot of the same page in view across the change.
    const anchor = this.#slots[this.#currentPage - 1];
    const within = anchor ? (this.#scroller.scrollTop - anchor.element.offsetTop) / Math.max(1, anchor.element.offsetHeight) : 0;
    this.#zoom = zoom;
    for (const slot of this.#slots) this.#layOut(slot);
    if (anchor) this.#scroller.scrollTop = anchor.element.offsetTop + within * anchor.element.offsetHeight;
    for (const slot of this.#near) void this.#render(slot);
    this.#emit();
  }

  #layOut(slot: PageSlot): void {
    const { style } = slot.element;
    style.width = `${Math.floor(slot.size.width * this.#zoom)}px`;
    style.height = `${Math.floor(slot.size.height * this.#zoom)}px`;
  }

  #handleIntersections(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const slot = this.#slots[Number((entry.target as HTMLElement).dataset.page) - 1];
      if (!slot) continue;
      if (entry.isIntersecting) {
        this.#near.add(slot);
        void this.#render(slot);
      } else {
        this.#near.delete(slot);
        this.#release(slot);
      }
    }
  }

  readonly #handleScroll = () => {
    cancelAnimationFrame(this.#scrollFrame);
    this.#scrollFrame = requestAnimationFrame(() => this.#updateCurrentPage());
  };

  #updateCurrentPage(): void {
    // The page crossing the upper third of the view is the one being read.
    const tops = this.#slots.map((slot) => slot.element.offsetTop);
    const index = pageAt(tops, this.#scroller.scrollTop + this.#scroller.clientHeight / 3);
    const atEnd = this.#scroller.scrollTop + this.#scroller.clientHeight >= this.#scroller.scrollHeight - 2;
    const page = atEnd ? this.#slots.length : index + 1;
    if (page !== this.#currentPage) {
      this.#currentPage = Math.max(1, page);
      this.#emit();
    }
  }

  #emit(): void {
    this.#onChange(this.state);
  }

  async #render(slot: PageSlot): Promise<void> {
    if (this.#destroyed || slot.renderedZoom === this.#zoom) return;
    slot.task?.cancel();
    slot.textLayer?.cancel();
    const generation = ++slot.generation;
    const zoom = this.#zoom;
    try {
      const page = slot.proxy ?? (await this.#document.getPage(slot.number));
      if (generation !== slot.generation) return;
      slot.proxy = page;
      if (!slot.isMeasured) {
        slot.size = sizeOf(page);
        slot.isMeasured = true;
        this.#layOut(slot);
      }
      const viewport = page.getViewport({ scale: zoom * CssUnitsPerPoint });
      const canvas = window.document.createElement('canvas');
      const scale = outputScale(viewport.width, viewport.height, window.devicePixelRatio, MaxCanvasPixels);
      canvas.width = Math.max(1, Math.floor(viewport.width * scale));
      canvas.height = Math.max(1, Math.floor(viewport.height * scale));
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', this.#pageLabel(slot.number));
      slot.task = page.render({
        canvas,
        viewport,
        transform: scale === 1 ? undefined : [scale, 0, 0, scale, 0, 0],
        // Annotations are drawn as they look, never as live links or form fields.
        annotationMode: AnnotationMode.ENABLE,
      });
      await slot.task.promise;
      if (generation !== slot.generation) return;
      // The old canvas stays (stretched) until the new one is ready: zooming never flashes blank.
      slot.canvas?.remove();
      slot.canvas = canvas;
      slot.element.prepend(canvas);
      slot.renderedZoom = zoom;
      await this.#renderText(slot, page, viewport, generation);
    } catch (error) {
      if (error instanceof RenderingCancelledException || generation !== slot.generation) return;
      slot.element.classList.add('page--failed');
      console.warn(`page ${slot.number} could not be drawn`, error);
    }
  }

  async #renderText(slot: PageSlot, page: PDFPageProxy, viewport: PageViewport, generation: number): Promise<void> {
    const element = window.document.createElement('div');
    element.className = 'textLayer';
    slot.element.style.setProperty('--total-scale-factor', String(viewport.scale * viewport.userUnit));
    const textLayer = new TextLayer({ textContentSource: page.streamTextContent(), container: element, viewport });
    slot.textLayer = textLayer;
    await textLayer.render();
    if (generation !== slot.generation) return;
    slot.textElement?.remove();
    slot.textElement = element;
    slot.element.append(element);
  }

  #release(slot: PageSlot): void {
    slot.generation += 1;
    slot.task?.cancel();
    slot.textLayer?.cancel();
    slot.task = undefined;
    slot.textLayer = undefined;
    if (slot.canvas) {
      // Zero-sized, the canvas gives its memory back at once rather than at collection.
      slot.canvas.width = 0;
      slot.canvas.height = 0;
      slot.canvas.remove();
      slot.canvas = undefined;
    }
    slot.textElement?.remove();
    slot.textElement = undefined;
    slot.renderedZoom = undefined;
    if (slot.proxy && slot.number !== 1) {
      slot.proxy.cleanup();
      slot.proxy = undefined;
    }
  }
}

/** A page's size in CSS pixels at zoom 1, rotation included. */
function sizeOf(page: PDFPageProxy): { width: number; height: number } {
  const viewport = page.getViewport({ scale: CssUnitsPerPoint });
  return { width: viewport.width, height: viewport.height };
}
