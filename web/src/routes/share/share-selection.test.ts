import { describe, expect, it } from 'vitest';
import { emptySelection, pick } from './share-selection';

const order = ['/a', '/b', '/c', '/d', '/e'];

describe('share listing selection', () => {
  it('a plain pick selects only that item', () => {
    const first = pick(emptySelection, order, '/b', 'single');
    expect(first.paths).toEqual(['/b']);
    expect(pick(first, order, '/d', 'single').paths).toEqual(['/d']);
  });

  it('toggling adds and removes, keeping listing order', () => {
    let selection = pick(emptySelection, order, '/d', 'toggle');
    selection = pick(selection, order, '/a', 'toggle');
    expect(selection.paths).toEqual(['/a', '/d']);
    selection = pick(selection, order, '/d', 'toggle');
    expect(selection.paths).toEqual(['/a']);
  });

  it('a range runs from the anchor in either direction', () => {
    const anchored = pick(emptySelection, order, '/d', 'single');
    expect(pick(anchored, order, '/b', 'range').paths).toEqual(['/b', '/c', '/d']);
    const extended = pick(pick(anchored, order, '/b', 'range'), order, '/e', 'range');
    expect(extended.paths).toEqual(['/d', '/e']);
  });

  it('a range without an anchor selects the one item', () => {
    expect(pick(emptySelection, order, '/c', 'range').paths).toEqual(['/c']);
  });
});
