import type { ResourceItem } from '@burrow/protocol';
import { render } from '@testing-library/react';
import { MemoryRouter } from '../../lib/router';
import { describe, expect, it } from 'vitest';
import { ListRow, MosaicTile, type ItemProps } from './listing-item';

const item: ResourceItem = {
  path: '/docs/a file.txt',
  name: 'a file.txt',
  size: 9,
  extension: '.txt',
  modified: '2026-01-02T03:04:05Z',
  mode: 0o644,
  isDir: false,
  isSymlink: false,
  type: 'text',
};

const props: ItemProps = {
  item,
  index: 0,
  isSelected: false,
  isDimmed: false,
  isTabbable: true,
  href: '/files/docs/a%20file.txt',
  sizeText: '9 B',
  dateText: '2 minutes ago',
  dateTitle: 'January 2, 2026',
  gesturesFor: () => ({}) as ReturnType<ItemProps['gesturesFor']>,
  canDrag: false,
  onDragStart: () => undefined,
  onDragEnd: () => undefined,
  onDropItems: () => undefined,
};

function itemLink(element: React.ReactElement): HTMLAnchorElement {
  const { container } = render(<MemoryRouter>{element}</MemoryRouter>);
  return container.querySelector<HTMLAnchorElement>('a[data-item-link]')!;
}

// WCAG 2.5.3 (label in name): a link's accessible name holds all the text it shows.
describe('listing item links', () => {
  it('in the list, name the item and show only its name', () => {
    const link = itemLink(<ListRow {...props} offset={0} rowIndex={2} />);
    expect(link.getAttribute('aria-label')).toBe('a file.txt');
    expect(link.textContent).toBe('a file.txt');
  });

  it.each([false, true])('in the mosaics (gallery %s), show the name in the link and the size and time beside it', (isGallery) => {
    const link = itemLink(<MosaicTile {...props} isGallery={isGallery} thumbnail="/thumb.jpg" />);
    expect(link.getAttribute('aria-label')).toBe('a file.txt');
    expect(link.textContent).toBe('a file.txt');
    const tile = link.closest('[role="gridcell"]')!;
    expect(tile.textContent).toContain('9 B');
    expect(tile.querySelector('time')!.getAttribute('title')).toBe('January 2, 2026');
    expect(link.contains(tile.querySelector('time'))).toBe(false);
  });
});
