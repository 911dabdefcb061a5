import { create } from 'zustand';
import { parentPath } from '../lib/paths';

type SelectionState = {
  /** Selected items of the folder on screen, by virtual path. */
  selected: ReadonlySet<string>;
  /** Where a shift-click range starts: the item clicked last without shift. */
  anchor: string | null;
  /** Multiple-selection mode: a plain click toggles an item instead of replacing the selection. */
  isMultiple: boolean;
  /**
   * An item the listing should scroll to and focus once it shows it (after a reload that
   * preselects something). `id` changes on every request so the same path can be revealed again.
   */
  reveal: { path: string; id: number } | null;
};

const empty: ReadonlySet<string> = new Set();
let revealCounter = 0;

export const useSelection = create<SelectionState>(() => ({ selected: empty, anchor: null, isMultiple: false, reveal: null }));

export function setSelection(selected: ReadonlySet<string>, anchor: string | null): void {
  useSelection.setState({ selected, anchor });
}

export function clearSelection(): void {
  useSelection.setState({ selected: empty, anchor: null, isMultiple: false });
}

export function setMultipleSelection(isMultiple: boolean): void {
  useSelection.setState({ isMultiple });
}

/**
 * Arriving at a folder keeps only the selected items inside it (an operation that opens its
 * destination, or closing a preview, preselects something there) and ends multiple selection.
 */
export function keepSelectionIn(folder: string): void {
  const { selected, isMultiple } = useSelection.getState();
  const kept = new Set([...selected].filter((item) => parentPath(item) === folder));
  if (kept.size !== selected.size) setSelection(kept, null);
  if (isMultiple) setMultipleSelection(false);
}

/** Selects one item (the preselection after a reload) and asks the listing to bring it into view. */
export function preselect(path: string): void {
  revealCounter += 1;
  useSelection.setState({ selected: new Set([path]), anchor: path, reveal: { path, id: revealCounter } });
}
