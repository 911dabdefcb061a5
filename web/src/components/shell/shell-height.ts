/** The panel's height when first opened, in em. */
export const DefaultShellHeight = 25;
/** Output shown at the least: about one line and the prompt, in em (plus the divider). */
const MinimumShellHeight = 2.25;
/** Room kept above the panel for the top bar, in em. */
const TopMargin = 4;
/** Pointer moves while dragging are handled at most this often. */
export const DragThrottleMs = 32;

export type ShellMetrics = {
  /** The window's inner height in pixels. */
  windowHeight: number;
  /** The panel's font size in pixels (1 em). */
  fontSize: number;
  /** The divider's height in pixels. */
  dividerHeight: number;
};

/** Keeps a height (em) between about 2.25 em plus the divider and the window height minus 4 em. */
export function clampShellHeight(height: number, metrics: ShellMetrics): number {
  const minimum = MinimumShellHeight + metrics.dividerHeight / metrics.fontSize;
  const maximum = Math.max(minimum, metrics.windowHeight / metrics.fontSize - TopMargin);
  return Math.round(Math.min(maximum, Math.max(minimum, height)) * 100) / 100;
}

/** The height (em) that puts the panel's top edge at a pointer's vertical position. */
export function heightAtPointer(clientY: number, metrics: ShellMetrics): number {
  return clampShellHeight((metrics.windowHeight - clientY) / metrics.fontSize, metrics);
}

/**
 * Calls `run` with the latest arguments at most once every `wait` ms: at once when the last call
 * is old enough, otherwise once the interval is over (so the final position is never lost).
 */
export function throttle<A extends unknown[]>(run: (...args: A) => void, wait: number, now: () => number = () => performance.now()) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const args = pending;
    pending = undefined;
    last = now();
    run(...args);
  };
  const throttled = (...args: A) => {
    pending = args;
    const elapsed = now() - last;
    if (elapsed >= wait) {
      if (timer !== undefined) clearTimeout(timer);
      flush();
    } else if (timer === undefined) {
      timer = setTimeout(flush, wait - elapsed);
    }
  };
  throttled.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return throttled;
}
