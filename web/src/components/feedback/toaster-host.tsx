import { lazy, Suspense } from 'react';
import { create } from 'zustand';
import { useAppSettings } from '../../stores/app-settings-store';

// The toast library is fetched the first time something is announced, not on start-up.
const LazyToaster = lazy(() => import('./toaster'));

const useToasterState = create<{ isWanted: boolean }>(() => ({ isWanted: false }));

let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Mounts the toaster (once) and resolves when it listens. */
export function whenToasterReady(): Promise<void> {
  if (!useToasterState.getState().isWanted) useToasterState.setState({ isWanted: true });
  return ready;
}

export function ToasterHost() {
  const isWanted = useToasterState((state) => state.isWanted);
  const theme = useAppSettings((state) => state.settings.Theme);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster theme={theme === 'light' || theme === 'dark' ? theme : 'system'} onReady={markReady} />
    </Suspense>
  );
}
