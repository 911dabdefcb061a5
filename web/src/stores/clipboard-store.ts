import { create } from 'zustand';

export type ClipboardItem = {
  /** Virtual path of the item where it was copied or cut. */
  from: string;
  name: string;
};

type ClipboardState = {
  /** `c` after copy, `x` after cut, null when empty. */
  key: 'c' | 'x' | null;
  items: ClipboardItem[];
  /** The folder the items came from, with a trailing slash. */
  source: string | null;
};

export const useClipboard = create<ClipboardState>(() => ({ key: null, items: [], source: null }));

export function putInClipboard(key: 'c' | 'x', items: ClipboardItem[], source: string): void {
  useClipboard.setState({ key, items, source });
}

export function clearClipboard(): void {
  useClipboard.setState({ key: null, items: [], source: null });
}
