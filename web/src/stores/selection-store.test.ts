import { beforeEach, describe, expect, it } from 'vitest';
import { clearSelection, keepSelectionIn, preselect, setMultipleSelection, setSelection, useSelection } from './selection-store';

describe('keepSelectionIn', () => {
  beforeEach(() => clearSelection());

  it('keeps the items of the folder arrived at and drops the others', () => {
    setSelection(new Set(['/a/one.txt', '/a/sub', '/b/two.txt']), '/a/one.txt');
    setMultipleSelection(true);
    keepSelectionIn('/a/');
    expect([...useSelection.getState().selected]).toEqual(['/a/one.txt', '/a/sub']);
    expect(useSelection.getState().anchor).toBeNull();
    expect(useSelection.getState().isMultiple).toBe(false);
  });

  it('leaves a preselection made for that folder untouched', () => {
    preselect('/photos/doc.pdf');
    const before = useSelection.getState();
    keepSelectionIn('/photos/');
    const after = useSelection.getState();
    expect(after.selected).toBe(before.selected);
    expect(after.anchor).toBe('/photos/doc.pdf');
    expect(after.reveal).toEqual(before.reveal);
  });

  it('drops everything when nothing selected is in the folder, including a subfolder’s items', () => {
    setSelection(new Set(['/photos/2024/a.jpg']), '/photos/2024/a.jpg');
    keepSelectionIn('/photos/');
    expect(useSelection.getState().selected.size).toBe(0);
  });
});
