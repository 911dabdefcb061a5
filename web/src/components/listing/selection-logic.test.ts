import { describe, expect, it } from 'vitest';
import { DoubleClickWindow, rangeBetween, resolveArrow, resolveClick, resolveLongPress, type ClickInput, type SelectionSnapshot } from './selection-logic';

const order = ['/a', '/b', '/c', '/d', '/e'];
const positions = new Map(order.map((path, index) => [path, index]));
const none: SelectionSnapshot = { selected: new Set(), anchor: null };

function click(path: string, changes: Partial<ClickInput> = {}): ClickInput {
  return { path, isRange: false, isToggle: false, isKeyboard: false, isMultipleMode: false, singleClick: false, previous: null, now: 1000, ...changes };
}

function selectedOf(outcome: ReturnType<typeof resolveClick>): string[] {
  if (outcome.kind !== 'select') throw new Error(`expected a selection, got ${outcome.kind}`);
  return [...outcome.selected].sort();
}

describe('resolveClick', () => {
  it('selects only the clicked item and makes it the anchor', () => {
    const outcome = resolveClick({ selected: new Set(['/a', '/b']), anchor: '/a' }, click('/c'), order, positions);
    expect(selectedOf(outcome)).toEqual(['/c']);
    expect(outcome.kind === 'select' && outcome.anchor).toBe('/c');
  });

  it('opens on a second click of the same item within 300 ms only', () => {
    const previous = { path: '/b', time: 1000 };
    const afterFirst = { selected: new Set(['/b']), anchor: '/b' };
    expect(resolveClick(afterFirst, click('/b', { previous, now: 1000 + DoubleClickWindow }), order, positions).kind).toBe('open');
    expect(resolveClick(afterFirst, click('/b', { previous, now: 1000 + DoubleClickWindow + 1 }), order, positions).kind).toBe('select');
    expect(resolveClick(afterFirst, click('/c', { previous, now: 1100 }), order, positions).kind).toBe('select');
  });

  it('takes a second click as a first one when the selection changed after the first', () => {
    const previous = { path: '/b', time: 1000 };
    // A paste selected what it added; the item clicked before is selected again, not opened.
    const pasted = { selected: new Set(['/d']), anchor: '/d' };
    expect(selectedOf(resolveClick(pasted, click('/b', { previous, now: 1100 }), order, positions))).toEqual(['/b']);
    // Ctrl+A selected everything after the first click.
    const everything = { selected: new Set(order), anchor: '/a' };
    expect(selectedOf(resolveClick(everything, click('/b', { previous, now: 1100 }), order, positions))).toEqual(['/b']);
    expect(resolveClick(none, click('/b', { previous, now: 1100 }), order, positions).kind).toBe('select');
  });

  it('opens at once with the singleClick preference or from the keyboard', () => {
    expect(resolveClick(none, click('/a', { singleClick: true }), order, positions).kind).toBe('open');
    expect(resolveClick(none, click('/a', { isKeyboard: true }), order, positions).kind).toBe('open');
  });

  it('toggles with Ctrl/Cmd and in multiple-selection mode, even with singleClick', () => {
    const state = { selected: new Set(['/a', '/b']), anchor: '/a' };
    expect(selectedOf(resolveClick(state, click('/b', { isToggle: true }), order, positions))).toEqual(['/a']);
    expect(selectedOf(resolveClick(state, click('/c', { isMultipleMode: true, singleClick: true }), order, positions))).toEqual(['/a', '/b', '/c']);
  });

  it('selects a range from the anchor in either direction', () => {
    expect(selectedOf(resolveClick({ selected: new Set(['/b']), anchor: '/b' }, click('/d', { isRange: true }), order, positions))).toEqual(['/b', '/c', '/d']);
    const backwards = resolveClick({ selected: new Set(['/d']), anchor: '/d' }, click('/a', { isRange: true }), order, positions);
    expect(selectedOf(backwards)).toEqual(['/a', '/b', '/c', '/d']);
    // The anchor stays, so a further shift-click re-ranges from it.
    expect(backwards.kind === 'select' && backwards.anchor).toBe('/d');
  });

  it('adds a range to the selection with Ctrl/Cmd+shift; without an anchor the range is the item', () => {
    expect(selectedOf(resolveClick({ selected: new Set(['/a']), anchor: '/c' }, click('/e', { isRange: true, isToggle: true }), order, positions))).toEqual(['/a', '/c', '/d', '/e']);
    expect(selectedOf(resolveClick(none, click('/c', { isRange: true }), order, positions))).toEqual(['/c']);
    expect(selectedOf(resolveClick({ selected: new Set(), anchor: '/gone' }, click('/b', { isRange: true }), order, positions))).toEqual(['/b']);
  });
});

describe('long press and arrows', () => {
  it('a long press adds the item', () => {
    expect([...resolveLongPress({ selected: new Set(['/a']), anchor: '/a' }, '/c').selected].sort()).toEqual(['/a', '/c']);
  });

  it('arrows move the single selection and stop at the ends', () => {
    expect(resolveArrow(none, 1, 1, false, order, positions)).toMatchObject({ index: 2, anchor: '/c' });
    expect(resolveArrow(none, 4, 1, false, order, positions)).toBeUndefined();
    expect(resolveArrow(none, 0, -3, false, order, positions)).toBeUndefined();
  });

  it('shift+arrow extends from the anchor', () => {
    const moved = resolveArrow({ selected: new Set(['/b']), anchor: '/b' }, 2, 1, true, order, positions)!;
    expect([...moved.selected]).toEqual(['/b', '/c', '/d']);
  });

  it('rangeBetween ignores unknown ends', () => {
    expect(rangeBetween(order, positions, '/x', '/b')).toEqual(['/b']);
    expect(rangeBetween(order, positions, '/a', '/x')).toEqual([]);
  });
});
