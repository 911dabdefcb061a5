import type { StartupSettings, TokenUser } from '@burrow/protocol';
import { create } from 'zustand';

type ShellState = {
  isOpen: boolean;
  setOpen: (open: boolean) => void;
  toggle: () => void;
};

/** Whether the shell panel is shown (toggled from the files screen's top bar). */
export const useShellPanel = create<ShellState>((set) => ({
  isOpen: false,
  setOpen: (open) => set({ isOpen: open }),
  toggle: () => set((state) => ({ isOpen: !state.isOpen })),
}));

/** The shell needs both the deployment's command runner and the user's execute permission. */
export function canUseShell(user: Pick<TokenUser, 'perm'> | null, settings: Pick<StartupSettings, 'EnableExec'>): boolean {
  return Boolean(settings.EnableExec && user?.perm.execute);
}
