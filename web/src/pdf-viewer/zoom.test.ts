import { describe, expect, it } from 'vitest';
import { clampZoom, CssUnitsPerPoint, fitWidthZoom, MaxZoom, MinZoom, outputScale, pageAt, zoomIn, zoomOut, ZoomSteps } from './zoom';

describe('PDF viewer zoom', () => {
  it('steps to the next level, from a level between steps too', () => {
    expect(zoomIn(1)).toBe(1.1);
    expect(zoomOut(1)).toBe(0.9);
    expect(zoomIn(1.3)).toBe(1.5);
    expect(zoomOut(1.3)).toBe(1.25);
    // Rounding noise does not skip or repeat a step.
    expect(zoomIn(1.0999999)).toBe(1.25);
    expect(zoomOut(1.2500001)).toBe(1.1);
  });

  it('stays within its bounds', () => {
    expect([MinZoom, MaxZoom]).toEqual([ZoomSteps[0], ZoomSteps.at(-1)]);
    expect([...ZoomSteps].sort((a, b) => a - b)).toEqual(ZoomSteps);
    expect(zoomIn(MaxZoom)).toBe(MaxZoom);
    expect(zoomOut(MinZoom)).toBe(MinZoom);
    expect(clampZoom(100)).toBe(MaxZoom);
    expect(clampZoom(0)).toBe(MinZoom);
    expect(clampZoom(Number.NaN)).toBe(1);
  });

  it('fits a page to the available width', () => {
    // A US Letter page (612 pt) shown 816 CSS pixels wide is at its printed size.
    expect(fitWidthZoom(816, 612)).toBeCloseTo(1);
    expect(fitWidthZoom(408, 612)).toBeCloseTo(0.5);
    expect(fitWidthZoom(0, 612)).toBe(1);
    expect(fitWidthZoom(800, 0)).toBe(1);
    expect(fitWidthZoom(10, 612)).toBe(MinZoom);
    expect(612 * CssUnitsPerPoint).toBe(816);
  });

  it('renders at the screen density unless the canvas would grow too large', () => {
    expect(outputScale(800, 1000, 2, 16e6)).toBe(2);
    expect(outputScale(800, 1000, 1, 16e6)).toBe(1);
    const scale = outputScale(4000, 5000, 2, 16e6);
    expect(scale).toBeLessThan(2);
    expect(4000 * scale * 5000 * scale).toBeCloseTo(16e6);
    expect(outputScale(0, 0, 3, 16e6)).toBe(3);
    expect(outputScale(800, 1000, Number.NaN, 16e6)).toBe(1);
  });

  it('finds the page at a scroll offset', () => {
    const tops = [0, 1000, 2000, 3100];
    expect(pageAt(tops, 0)).toBe(0);
    expect(pageAt(tops, 999)).toBe(0);
    expect(pageAt(tops, 1000)).toBe(1);
    expect(pageAt(tops, 3099)).toBe(2);
    expect(pageAt(tops, 99999)).toBe(3);
    expect(pageAt(tops, -5)).toBe(0);
    expect(pageAt([], 10)).toBe(-1);
  });
});
