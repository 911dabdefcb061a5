import { create } from 'zustand';
import type { DialogName, DialogPropsOf } from '../dialogs/dialog-types';

export type DialogEntry = { [K in DialogName]: { id: number; name: K; props: DialogPropsOf<K> } }[DialogName];

type DialogState = {
  /** Open dialogs, oldest first; the last one is current. */
  stack: DialogEntry[];
  openDialog: <K extends DialogName>(name: K, props: DialogPropsOf<K>) => number;
  /** Closes the given dialog, or the current one. */
  closeDialog: (id?: number) => void;
  closeAll: () => void;
};

let nextId = 1;

export const useDialogs = create<DialogState>((set) => ({
  stack: [],
  openDialog: (name, props) => {
    const id = nextId++;
    set((state) => ({ stack: [...state.stack, { id, name, props } as DialogEntry] }));
    return id;
  },
  closeDialog: (id) =>
    set((state) => ({ stack: id === undefined ? state.stack.slice(0, -1) : state.stack.filter((entry) => entry.id !== id) })),
  closeAll: () => set({ stack: [] }),
}));

/** Opens a dialog by name; its props are checked against the registry. */
export function openDialog<K extends DialogName>(name: K, props: DialogPropsOf<K>): number {
  return useDialogs.getState().openDialog(name, props);
}

