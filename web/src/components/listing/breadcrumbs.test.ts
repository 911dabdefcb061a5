import { describe, expect, it } from 'vitest';
import { collapseCrumbs, crumbsOf } from './breadcrumbs';

describe('breadcrumbs', () => {
  it('lists the folders leading to a path', () => {
    expect(crumbsOf('/')).toEqual([]);
    expect(crumbsOf('/a/b c/')).toEqual([
      { name: 'a', path: '/a/' },
      { name: 'b c', path: '/a/b c/' },
    ]);
    expect(crumbsOf('/a/file.txt')).toEqual([
      { name: 'a', path: '/a/' },
      { name: 'file.txt', path: '/a/file.txt' },
    ]);
  });

  it('shows the last three segments when there are more than three', () => {
    const three = crumbsOf('/a/b/c/');
    expect(collapseCrumbs(three)).toEqual({ hidden: [], shown: three });
    const { hidden, shown } = collapseCrumbs(crumbsOf('/a/b/c/d/e/'));
    expect(hidden.map((crumb) => crumb.name)).toEqual(['a', 'b']);
    expect(shown.map((crumb) => crumb.name)).toEqual(['c', 'd', 'e']);
  });
});
