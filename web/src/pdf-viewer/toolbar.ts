import type { PdfViewerLabels } from './messages';
import type { DocumentViewState } from './document-view';

/** Icon outlines on a 24-unit grid, drawn with a round 2-unit stroke. */
const Icons = {
  previous: ['M6 15l6-6 6 6'],
  next: ['M6 9l6 6 6-6'],
  zoomOut: ['M5 12h14'],
  zoomIn: ['M12 5v14', 'M5 12h14'],
  fitWidth: ['M3 12h18', 'M7 8l-4 4 4 4', 'M17 8l4 4-4 4'],
} as const;

export type ToolbarActions = {
  previousPage: () => void;
  nextPage: () => void;
  zoomOut: () => void;
  zoomIn: () => void;
  fitWidth: () => void;
};

function icon(paths: readonly string[]): SVGSVGElement {
  const namespace = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(namespace, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const d of paths) {
    const path = document.createElementNS(namespace, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

function button(label: string, paths: readonly string[], onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'toolbar__button';
  element.setAttribute('aria-label', label);
  element.title = label;
  element.append(icon(paths));
  element.addEventListener('click', onClick);
  return element;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The viewer's bar: previous and next page, "page n of N", zoom out, zoom level, zoom in, fit width. */
export class Toolbar {
  readonly element: HTMLDivElement;
  readonly #labels: PdfViewerLabels;
  readonly #numbers: Intl.NumberFormat;
  readonly #percent: Intl.NumberFormat;
  readonly #previous: HTMLButtonElement;
  readonly #next: HTMLButtonElement;
  readonly #zoomOut: HTMLButtonElement;
  readonly #zoomIn: HTMLButtonElement;
  readonly #position: HTMLSpanElement;
  readonly #zoom: HTMLSpanElement;

  constructor(labels: PdfViewerLabels, locale: string, actions: ToolbarActions) {
    this.#labels = labels;
    this.#numbers = new Intl.NumberFormat(locale);
    this.#percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    this.element = document.createElement('div');
    this.element.className = 'toolbar';
    this.element.setAttribute('role', 'toolbar');
    this.element.setAttribute('aria-label', labels.toolbar);

    this.#previous = button(labels.previousPage, Icons.previous, actions.previousPage);
    this.#next = button(labels.nextPage, Icons.next, actions.nextPage);
    this.#position = document.createElement('span');
    this.#position.className = 'toolbar__position';
    const paging = document.createElement('div');
    paging.className = 'toolbar__group';
    paging.append(this.#previous, this.#next, this.#position);

    this.#zoomOut = button(labels.zoomOut, Icons.zoomOut, actions.zoomOut);
    this.#zoomIn = button(labels.zoomIn, Icons.zoomIn, actions.zoomIn);
    this.#zoom = document.createElement('span');
    this.#zoom.className = 'toolbar__zoom';
    this.#zoom.title = labels.zoom;
    const zooming = document.createElement('div');
    zooming.className = 'toolbar__group';
    zooming.append(this.#zoomOut, this.#zoom, this.#zoomIn, button(labels.fitWidth, Icons.fitWidth, actions.fitWidth));

    this.element.append(paging, zooming);
  }

  update({ page, pageCount, zoom }: DocumentViewState, { isMinZoom, isMaxZoom }: { isMinZoom: boolean; isMaxZoom: boolean }): void {
    this.#position.textContent = fill(this.#labels.pageOf, { page: this.#numbers.format(page), count: this.#numbers.format(pageCount) });
    this.#zoom.textContent = this.#percent.format(zoom);
    this.#previous.disabled = page <= 1;
    this.#next.disabled = page >= pageCount;
    this.#zoomOut.disabled = isMinZoom;
    this.#zoomIn.disabled = isMaxZoom;
  }
}

export { fill as fillLabel };
