/**
 * Geometry of the image zoom. The image sits centred in its box; the view is
 * `translate(x, y) scale(scale)` with the box centre as origin, so a point `c` of the image
 * (relative to the centre, unscaled) shows at `t + scale · c`. Points are relative to the box centre.
 */
export type View = { scale: number; x: number; y: number };
export type Point = { x: number; y: number };
export type Size = { width: number; height: number };

const MinScale = 1;
export const MaxScale = 8;
export const Identity: View = { scale: 1, x: 0, y: 0 };

function clampScale(scale: number): number {
  return Math.min(MaxScale, Math.max(MinScale, scale));
}

/**
 * Keeps the enlarged image covering the box where it can: it may not be dragged further than
 * its overhang on each side. At scale 1 it is centred.
 */
export function clampView(view: View, image: Size, box: Size): View {
  const scale = clampScale(view.scale);
  const limitX = Math.max(0, (image.width * scale - box.width) / 2);
  const limitY = Math.max(0, (image.height * scale - box.height) / 2);
  // `|| 0` turns -0 into 0, so a centred view compares equal to the identity.
  return {
    scale,
    x: Math.min(limitX, Math.max(-limitX, view.x)) || 0,
    y: Math.min(limitY, Math.max(-limitY, view.y)) || 0,
  };
}

/** Zooms to `scale` keeping the image point under `anchor` where it is. */
export function zoomAt(view: View, scale: number, anchor: Point): View {
  const next = clampScale(scale);
  const ratio = next / view.scale;
  return {
    scale: next,
    x: anchor.x - (anchor.x - view.x) * ratio,
    y: anchor.y - (anchor.y - view.y) * ratio,
  };
}

/**
 * A two-finger gesture from its start: the image point under the first midpoint follows the
 * fingers' midpoint, scaled by how far the fingers spread.
 */
export function pinch(start: View, startMid: Point, startDistance: number, mid: Point, distance: number): View {
  const scale = clampScale(start.scale * (startDistance > 0 ? distance / startDistance : 1));
  const ratio = scale / start.scale;
  return {
    scale,
    x: mid.x - (startMid.x - start.x) * ratio,
    y: mid.y - (startMid.y - start.y) * ratio,
  };
}

/** Scale factor of one wheel event: smooth for trackpads, one notch ≈ 20 % for mice. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-100, Math.min(100, pixels)) * 0.002);
}
