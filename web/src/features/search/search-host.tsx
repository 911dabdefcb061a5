import { useQueryClient } from '../../lib/query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from '../../lib/router';
import { currentFolder, filesPathOf } from '../../routes/files/files-path';
import { OpenSearchEvent } from '../../stores/app-events';

// The overlay itself (box, filters, streamed results) is fetched when it first opens.
const SearchPanel = lazy(async () => ({ default: (await import('./search-panel')).SearchPanel }));

const StateKey = 'burrowSearch';
/**
 * Marks history entries this page load pushed for the overlay. After a reload the browser still
 * holds the old entry's state, but the overlay it belonged to is gone: it should not reappear.
 */
const PageMark = Math.random().toString(36).slice(2);

function isSearchEntry(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[StateKey] === PageMark;
}

/**
 * Opens the search overlay on the files screen when asked (the top-bar button, Ctrl/Cmd+Shift+F).
 * Opening pushes a history entry, so the browser's back button closes the overlay; Escape and
 * the close button go back the same way.
 */
export function SearchHost() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isFilesScreen = filesPathOf(location.pathname) !== undefined;
  const isOpen = isFilesScreen && isSearchEntry(location.state);
  // Two quick Escapes must not go back twice (the second would leave the page).
  const closedEntry = useRef<string | null>(null);

  useEffect(() => {
    if (!isFilesScreen || isOpen) return;
    const open = () => {
      const state = typeof location.state === 'object' && location.state !== null ? location.state : {};
      navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { state: { ...state, [StateKey]: PageMark } });
    };
    window.addEventListener(OpenSearchEvent, open);
    return () => window.removeEventListener(OpenSearchEvent, open);
  }, [isFilesScreen, isOpen, location, navigate]);

  if (!isOpen) return null;
  const close = () => {
    if (closedEntry.current === location.key) return;
    closedEntry.current = location.key;
    navigate(-1);
  };
  return (
    <Suspense fallback={null}>
      <SearchPanel folder={currentFolder(location.pathname, queryClient)} onClose={close} />
    </Suspense>
  );
}
