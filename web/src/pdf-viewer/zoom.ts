/** Zoom levels the buttons step through; 1 shows a page at its printed size. */
export const ZoomSteps: readonly number[] = [0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];
export const MinZoom = 0.25;
export const MaxZoom = 5;

/** The automatic zoom fits the width, but never enlarges a page beyond this on wide screens. */
export const MaxAutoZoom = 1.25;

/** CSS pixels per PDF point: PDF units are 1/72 inch, CSS pixels 1/96 inch. */
export const CssUnitsPerPoint = 96 / 72;

const Epsilon = 0.001;

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(MaxZoom, Math.max(MinZoom, zoom));
}

/** The next step above the current level (levels between steps go to the nearest step up). */
export function zoomIn(zoom: number): number {
  return ZoomSteps.find((step) => step > zoom + Epsilon) ?? MaxZoom;
}

export function zoomOut(zoom: number): number {
  return [...ZoomSteps].reverse().find((step) => step < zoom - Epsilon) ?? MinZoom;
}

/**
 * The zoom at which a page `pageWidthPoints` wide fills `availableWidth` CSS pixels. An unknown
 * or empty width (a frame not laid out yet) gives the printed size.
 */
export function fitWidthZoom(availableWidth: number, pageWidthPoints: number): number {
  if (!(availableWidth > 0) || !(pageWidthPoints > 0)) return 1;
  return clampZoom(availableWidth / (pageWidthPoints * CssUnitsPerPoint));
}

/**
 * How many device pixels per CSS pixel a page's canvas gets: the screen's ratio, lowered when the
 * canvas would exceed `maxPixels` (a page zoomed far in on a dense screen would otherwise take
 * hundreds of megabytes).
 */
export function outputScale(cssWidth: number, cssHeight: number, devicePixelRatio: number, maxPixels: number): number {
  const ratio = devicePixelRatio > 0 && Number.isFinite(devicePixelRatio) ? devicePixelRatio : 1;
  const area = cssWidth * cssHeight;
  if (!(area > 0)) return ratio;
  return Math.min(ratio, Math.sqrt(maxPixels / area));
}

/** The index of the page at `offset` in a column of pages whose tops are `tops` (ascending). */
export function pageAt(tops: readonly number[], offset: number): number {
  let low = 0;
  let high = tops.length - 1;
  if (high < 0) return -1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (tops[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
