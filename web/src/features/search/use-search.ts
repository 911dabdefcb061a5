import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/api-error';
import { searchFolder } from '../../api/search';
import type { SearchControls } from '../../components/search/search-overlay';

type SearchState = Omit<SearchControls, 'run' | 'reset'>;

const idle: SearchState = { results: [], status: 'idle', error: null };

/**
 * One search at a time in `folder`: `run` aborts the previous request and streams the new one's
 * results into the list as they arrive; `reset` aborts and empties it. Unmounting aborts too.
 */
export function useSearch(folder: string): SearchControls {
  const [state, setState] = useState<SearchState>(idle);
  const controllerRef = useRef<AbortController | null>(null);

  const abort = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
  }, []);

  const reset = useCallback(() => {
    abort();
    setState(idle);
  }, [abort]);

  const run = useCallback(
    (query: string) => {
      abort();
      if (query.trim() === '') return;
      const controller = new AbortController();
      controllerRef.current = controller;
      setState({ results: [], status: 'searching', error: null });
      void (async () => {
        try {
          for await (const batch of searchFolder(folder, query, controller.signal)) {
            if (controller.signal.aborted) return;
            setState((previous) => ({ ...previous, results: previous.results.concat(batch) }));
          }
          if (!controller.signal.aborted) setState((previous) => ({ ...previous, status: 'done' }));
        } catch (error) {
          if (controller.signal.aborted || (isApiError(error) && error.isCancel)) return;
          setState((previous) => ({ ...previous, status: 'failed', error: error instanceof Error ? error.message : String(error) }));
        } finally {
          if (controllerRef.current === controller) controllerRef.current = null;
        }
      })();
    },
    [abort, folder],
  );

  useEffect(() => abort, [abort]);

  return { ...state, run, reset };
}
