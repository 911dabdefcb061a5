import type { ResourceItem } from '@burrow/protocol';
import { describe, expect, it } from 'vitest';
import { neighboursIn } from './use-neighbours';

function item(name: string, type: string, isDir = false): ResourceItem {
  return { path: `/pics/${name}`, name, size: 1, extension: '', modified: '', mode: 0, isDir, isSymlink: false, type };
}

const listing = [item('albums', '', true), item('a.jpg', 'image'), item('notes.txt', 'text'), item('b.mp4', 'video'), item('c.bin', 'blob'), item('d.pdf', 'pdf')];

describe('preview neighbours', () => {
  it('pages through files in listing order, skipping folders and text files', () => {
    const middle = neighboursIn(listing, '/pics/b.mp4');
    expect(middle.previous?.name).toBe('a.jpg');
    expect(middle.next?.name).toBe('c.bin');
    expect(middle.position).toBe(2);
    expect(middle.count).toBe(4);
  });

  it('has no neighbour beyond the ends', () => {
    expect(neighboursIn(listing, '/pics/a.jpg').previous).toBeUndefined();
    expect(neighboursIn(listing, '/pics/d.pdf').next).toBeUndefined();
  });

  it('knows nothing about a file missing from the listing', () => {
    const missing = neighboursIn(listing, '/pics/gone.png');
    expect([missing.previous, missing.next, missing.position]).toEqual([undefined, undefined, 0]);
    expect(neighboursIn(undefined, '/pics/a.jpg')).toMatchObject({ position: 0, count: 0 });
  });
});
