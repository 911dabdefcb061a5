import { describe, expect, it } from 'vitest';
import { clampView, Identity, MaxScale, pinch, wheelFactor, zoomAt, type Point, type View } from './zoom-math';

/** Where an image point (relative to the centre, unscaled) appears on screen. */
function project(view: View, point: Point): Point {
  return { x: view.x + view.scale * point.x, y: view.y + view.scale * point.y };
}

describe('zoom geometry', () => {
  it('keeps the point under the cursor in place when zooming', () => {
    const anchor = { x: 120, y: -40 };
    const before = { scale: 1.5, x: 30, y: 10 };
    const imagePoint = { x: (anchor.x - before.x) / before.scale, y: (anchor.y - before.y) / before.scale };
    const after = zoomAt(before, 3, anchor);
    expect(after.scale).toBe(3);
    const shown = project(after, imagePoint);
    expect(shown.x).toBeCloseTo(anchor.x);
    expect(shown.y).toBeCloseTo(anchor.y);
  });

  it('never zooms out below the fitted size nor beyond the maximum', () => {
    expect(zoomAt(Identity, 0.2, { x: 10, y: 10 })).toEqual(Identity);
    expect(zoomAt(Identity, 100, { x: 0, y: 0 }).scale).toBe(MaxScale);
  });

  it('limits dragging to the overhang and centres the fitted image', () => {
    const image = { width: 400, height: 300 };
    const box = { width: 500, height: 300 };
    expect(clampView({ scale: 1, x: 80, y: -60 }, image, box)).toEqual({ scale: 1, x: 0, y: 0 });
    // At 2×: 800 × 600 in a 500 × 300 box overhangs 150 and 150 on each side.
    expect(clampView({ scale: 2, x: 400, y: -400 }, image, box)).toEqual({ scale: 2, x: 150, y: -150 });
    expect(clampView({ scale: 2, x: 20, y: 30 }, image, box)).toEqual({ scale: 2, x: 20, y: 30 });
  });

  it('follows two fingers: spread zooms, the midpoint carries the image', () => {
    const start = { scale: 1, x: 0, y: 0 };
    const startMid = { x: 50, y: 20 };
    const imagePoint = { x: 50, y: 20 };
    const moved = pinch(start, startMid, 100, { x: 70, y: 0 }, 250);
    expect(moved.scale).toBeCloseTo(2.5);
    const shown = project(moved, imagePoint);
    expect(shown.x).toBeCloseTo(70);
    expect(shown.y).toBeCloseTo(0);
  });

  it('turns wheel steps into gentle zoom factors', () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-48, 0));
    expect(wheelFactor(-10_000, 0)).toBeCloseTo(Math.exp(0.2));
  });
});
