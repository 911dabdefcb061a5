import { create } from 'zustand';

type LayoutState = {
  /** The sidebar drawer on narrow screens. */
  isSidebarOpen: boolean;
  setSidebarOpen: (open: boolean) => void;
  toggleSidebar: () => void;
};

export const useLayout = create<LayoutState>((set) => ({
  isSidebarOpen: false,
  setSidebarOpen: (open) => set({ isSidebarOpen: open }),
  toggleSidebar: () => set((state) => ({ isSidebarOpen: !state.isSidebarOpen })),
}));

/** Width at and below which the layout switches to the mobile arrangement. */
export const MobileBreakpoint = 736;
