/** Double-click (and double-tap) window of spec section 9. */
export const DoubleClickWindow = 300;
/** A press held this long selects the item (spec section 9). */
export const LongPressDelay = 500;
/** Moving the pointer further than this cancels a long press. */
export const LongPressTolerance = 10;

export type SelectionSnapshot = {
  selected: ReadonlySet<string>;
  anchor: string | null;
};

export type ClickInput = {
  path: string;
  /** Shift held: select the range from the anchor. */
  isRange: boolean;
  /** Ctrl or Cmd held: toggle this item. */
  isToggle: boolean;
  /** The click came from the keyboard (Enter on the item's link). */
  isKeyboard: boolean;
  isMultipleMode: boolean;
  singleClick: boolean;
  /** The previous plain click, to recognise a double click within the window. */
  previous: { path: string; time: number } | null;
  now: number;
};

export type ClickOutcome = { kind: 'open' } | ({ kind: 'select' } & SelectionSnapshot);

/** Paths from one item to another in display order, both included, whichever comes first. */
export function rangeBetween(order: readonly string[], positions: ReadonlyMap<string, number>, from: string, to: string): string[] {
  const start = positions.get(from);
  const end = positions.get(to);
  if (start === undefined || end === undefined) return end === undefined ? [] : [to];
  return order.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/**
 * What a click on an item does (spec section 2): Enter opens; shift selects a range from the
 * anchor (adding to the selection with Ctrl/Cmd); Ctrl/Cmd or multiple-selection mode toggle;
 * otherwise a click opens with the singleClick preference, and else selects the item, a second
 * click on it within 300 ms opening it.
 */
export function resolveClick(
  state: SelectionSnapshot,
  input: ClickInput,
  order: readonly string[],
  positions: ReadonlyMap<string, number>,
): ClickOutcome {
  if (input.isKeyboard) return { kind: 'open' };
  if (input.isRange) {
    const anchor = state.anchor !== null && positions.has(state.anchor) ? state.anchor : input.path;
    const range = rangeBetween(order, positions, anchor, input.path);
    const selected = new Set(input.isToggle ? state.selected : []);
    for (const path of range) selected.add(path);
    return { kind: 'select', selected, anchor };
  }
  if (input.isToggle || input.isMultipleMode) {
    const selected = new Set(state.selected);
    if (selected.has(input.path)) selected.delete(input.path);
    else selected.add(input.path);
    return { kind: 'select', selected, anchor: input.path };
  }
  if (input.singleClick) return { kind: 'open' };
  // A double click: the same item within the window, still the whole selection its first click
  // made. Anything that changed the selection in between (a paste selecting what it added, a
  // key) makes this a new first click.
  const previous = input.previous;
  const stillSelected = state.selected.size === 1 && state.selected.has(input.path);
  if (previous && previous.path === input.path && input.now - previous.time <= DoubleClickWindow && stillSelected) return { kind: 'open' };
  return { kind: 'select', selected: new Set([input.path]), anchor: input.path };
}

/** A long press adds the item to the selection (and the caller switches multiple-selection mode on). */
export function resolveLongPress(state: SelectionSnapshot, path: string): SelectionSnapshot {
  const selected = new Set(state.selected);
  selected.add(path);
  return { selected, anchor: path };
}

/**
 * Arrow-key movement: the item `step` places away becomes the only selection, or with shift the
 * range from the anchor to it. Returns undefined at either end.
 */
export function resolveArrow(
  state: SelectionSnapshot,
  current: number,
  step: number,
  isRange: boolean,
  order: readonly string[],
  positions: ReadonlyMap<string, number>,
): (SelectionSnapshot & { index: number }) | undefined {
  const index = Math.min(order.length - 1, Math.max(0, current + step));
  if (index === current || order.length === 0) return undefined;
  const path = order[index]!;
  if (!isRange) return { selected: new Set([path]), anchor: path, index };
  const anchor = state.anchor !== null && positions.has(state.anchor) ? state.anchor : order[current]!;
  return { selected: new Set(rangeBetween(order, positions, anchor, path)), anchor, index };
}
