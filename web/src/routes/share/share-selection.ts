import { useCallback, useState } from 'react';

export type SelectMode = 'single' | 'toggle' | 'range';

export type Selection = {
  /** Selected item paths, in listing order. */
  paths: string[];
  /** Where a shift-click range starts: the last item clicked without shift. */
  anchor?: string;
};

export const emptySelection: Selection = { paths: [] };

/**
 * The selection after picking `path` among `order` (all item paths, in listing order):
 * `single` selects only it, `toggle` adds or removes it (ctrl/cmd-click, or any click while
 * multiple selection is on), `range` selects from the anchor to it (shift-click).
 */
export function pick(selection: Selection, order: readonly string[], path: string, mode: SelectMode): Selection {
  if (mode === 'range' && selection.anchor !== undefined) {
    const from = order.indexOf(selection.anchor);
    const to = order.indexOf(path);
    if (from !== -1 && to !== -1) {
      const [start, end] = from <= to ? [from, to] : [to, from];
      return { paths: order.slice(start, end + 1), anchor: selection.anchor };
    }
  }
  if (mode === 'toggle') {
    const isSelected = selection.paths.includes(path);
    const chosen = new Set(isSelected ? selection.paths.filter((other) => other !== path) : [...selection.paths, path]);
    return { paths: order.filter((other) => chosen.has(other)), anchor: path };
  }
  return { paths: [path], anchor: path };
}

/** Selection state of the share listing; it starts empty again for every folder. */
export function useShareSelection(folderKey: string) {
  const [state, setState] = useState<{ key: string; selection: Selection }>({ key: folderKey, selection: emptySelection });
  const selection = state.key === folderKey ? state.selection : emptySelection;
  const update = useCallback((next: (current: Selection) => Selection) => {
    setState((previous) => ({ key: folderKey, selection: next(previous.key === folderKey ? previous.selection : emptySelection) }));
  }, [folderKey]);
  return { selection, update };
}
