import { matchRoutes, rankRoutes, stripBasename, type RouteMatch, type RouteObject } from './match';

export type { RouteObject };

/** A place in the app: the pathname below the base URL, URL-encoded as the address bar shows it. */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

type HistoryAction = 'PUSH' | 'REPLACE' | 'POP';

export type BlockerFunction = (args: { currentLocation: Location; nextLocation: Location; historyAction: HistoryAction }) => boolean;

export type Blocker = { state: 'unblocked' | 'proceeding'; proceed?: undefined; reset?: undefined } | { state: 'blocked'; proceed: () => void; reset: () => void };

const unblocked: Blocker = { state: 'unblocked' };

/** An error page's answer when no route takes the path. */
interface ErrorResponse {
  status: number;
  statusText: string;
  internal: boolean;
  data: unknown;
}

export function isRouteErrorResponse(error: unknown): error is ErrorResponse {
  const value = error as ErrorResponse | null;
  return value != null && typeof value.status === 'number' && typeof value.statusText === 'string' && typeof value.internal === 'boolean' && 'data' in value;
}

export interface RouterState {
  location: Location;
  /** Null until the first location's loaders and screens have arrived. */
  match: RouteMatch | null;
  /** A failed loader or screen fetch, shown by the route at `index` with an error element. */
  error?: { index: number; error: unknown };
  blocker: Blocker;
}

/** What the router keeps in each history entry: the app's state, the entry's key and position. */
interface EntryState {
  usr: unknown;
  key: string;
  idx: number;
}

/** The browser's history or a list in memory, seen as URLs below the origin. */
interface HistorySource {
  read(): { url: string; entry: EntryState | null };
  write(url: string, entry: EntryState, replace: boolean): void;
  go(delta: number): void;
  listen(onPop: () => void): void;
}

export type Router = ReturnType<typeof createRouter>;

const createKey = () => Math.random().toString(36).slice(2, 10);

/** Splits `/a?b#c` into its parts; `new URL` encodes them as the browser would. */
function toLocation(to: To, from: Location, state: unknown): Location {
  const path = typeof to === 'string' ? to : `${to.pathname ?? from.pathname}${to.search ?? ''}${to.hash ?? ''}`;
  const url = new URL('http://localhost' + (path.startsWith('/') ? '' : '/') + path.replace(/ $/, '%20'));
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, key: createKey() };
}

const pathOf = (location: Pick<Location, 'pathname' | 'search' | 'hash'>) => location.pathname + location.search + location.hash;

function createRouter(routes: RouteObject[], basename: string, source: HistorySource) {
  const base = basename.replace(/\/+$/, '');
  const branches = rankRoutes(routes);
  const loaded = new WeakSet<RouteObject>();
  const lazyLoads = new WeakMap<RouteObject, Promise<unknown>>();
  const listeners = new Set<(state: RouterState) => void>();
  let blockerFunction: BlockerFunction | undefined;
  let index = 0;
  let pending = 0;
  /** The pop that puts back an entry the blocker held: it is not a navigation. */
  let ignoredPop: (() => void) | undefined;

  const readLocation = (): Location => {
    const { url, entry } = source.read();
    const { pathname, search, hash } = new URL('http://localhost' + url);
    return { pathname: stripBasename(pathname, base) ?? pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
  };

  let state: RouterState = { location: readLocation(), match: null, blocker: unblocked };

  const update = (next: Partial<RouterState>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener(state));
  };

  /** What a route still needs before it can show: its code, its loader's run. Undefined when ready. */
  function prepare(route: RouteObject): Promise<void> | undefined {
    const needsCode = route.lazy && !route.Component;
    const needsLoader = route.loader && !loaded.has(route);
    if (!needsCode && !needsLoader) return undefined;
    return (async () => {
      if (route.lazy && needsCode) {
        if (!lazyLoads.has(route)) {
          const loading = route.lazy().then((module) => Object.assign(route, module));
          // A screen whose code failed to arrive (the network, a server restarting) is fetched
          // again on the next visit instead of failing until the page is reloaded.
          loading.catch(() => lazyLoads.delete(route));
          lazyLoads.set(route, loading);
        }
        await lazyLoads.get(route);
      }
      if (route.loader && needsLoader) {
        await route.loader();
        loaded.add(route);
      }
    })();
  }

  /**
   * Runs the loaders and fetches the screens a location needs, then shows it; at once when all
   * are there already.
   */
  function load(location: Location, commit?: () => void): Promise<void> {
    const ticket = ++pending;
    const found = matchRoutes(branches, location.pathname);
    // Outside the route table: the root route's error element answers 404.
    const match = found ?? { routes: routes.slice(0, 1), params: {} };
    const finish = (failures: unknown[]) => {
      // A later navigation took over while this one waited.
      if (ticket !== pending) return;
      let error: RouterState['error'];
      const failed = failures.findIndex((failure) => failure !== undefined);
      if (!found) {
        error = { index: 0, error: { status: 404, statusText: 'Not Found', internal: true, data: `Error: No route matches URL "${location.pathname}"` } };
      } else if (failed >= 0) {
        // The nearest route with an error element at or above the failed one shows the error.
        let boundary = failed;
        while (boundary > 0 && match.routes[boundary]?.errorElement == null) boundary--;
        error = { index: boundary, error: (failures[failed] as { error: unknown }).error };
      }
      commit?.();
      update({ location, match, error, blocker: unblocked });
    };
    const waits = found ? found.routes.map(prepare) : [];
    if (!waits.some(Boolean)) {
      finish([]);
      return Promise.resolve();
    }
    return Promise.all(waits.map((wait) => wait?.then(() => undefined, (error: unknown) => ({ error })))).then(finish);
  }

  function shouldBlock(nextLocation: Location, historyAction: HistoryAction): boolean {
    return state.blocker.state !== 'proceeding' && blockerFunction?.({ currentLocation: state.location, nextLocation, historyAction }) === true;
  }

  function navigate(to: To | number, options: NavigateOptions = {}): Promise<void> {
    if (typeof to === 'number') {
      source.go(to);
      return Promise.resolve();
    }
    const location = toLocation(to, state.location, options.state ?? null);
    const replace = options.replace === true;
    const go = () =>
      load(location, () => {
        if (!replace) index++;
        const url = location.pathname === '/' && base ? base : base + location.pathname;
        source.write(url + location.search + location.hash, { usr: location.state, key: location.key, idx: index }, replace);
      });
    if (shouldBlock(location, replace ? 'REPLACE' : 'PUSH')) {
      update({
        blocker: {
          state: 'blocked',
          proceed: () => {
            update({ blocker: { state: 'proceeding' } });
            void go();
          },
          reset: () => update({ blocker: unblocked }),
        },
      });
      return Promise.resolve();
    }
    return go();
  }

  // Back and forward: the entry has already changed; a held one is put back until the user decides.
  source.listen(() => {
    if (ignoredPop) {
      ignoredPop();
      ignoredPop = undefined;
      return;
    }
    const location = readLocation();
    const nextIndex = source.read().entry?.idx;
    const delta = nextIndex == null ? null : nextIndex - index;
    if (delta != null && shouldBlock(location, 'POP')) {
      const restored = new Promise<void>((resolve) => (ignoredPop = resolve));
      source.go(-delta);
      update({
        blocker: {
          state: 'blocked',
          proceed: () => {
            update({ blocker: { state: 'proceeding' } });
            void restored.then(() => source.go(delta));
          },
          reset: () => update({ blocker: unblocked }),
        },
      });
      return;
    }
    if (nextIndex != null) index = nextIndex;
    void load(location);
  });

  const first = source.read().entry;
  if (first?.idx == null) source.write(source.read().url, { usr: null, key: 'default', ...first, idx: 0 }, true);
  else index = first.idx;
  void load(state.location);

  return {
    /** What the first render shows while it waits for the start-up loaders. */
    rootFallback: routes[0]?.HydrateFallback,
    get state() {
      return state;
    },
    subscribe(listener: (state: RouterState) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    navigate,
    /** The one blocker in charge; undefined removes it. */
    setBlocker(next: BlockerFunction | undefined) {
      blockerFunction = next;
      if (!next && state.blocker.state !== 'unblocked') update({ blocker: unblocked });
    },
    /** A target as the pathname, search and hash it leads to, URL-encoded. */
    resolve: (to: To) => pathOf(toLocation(to, state.location, null)),
    /** The href of a path inside the app, under the base URL. */
    createHref(to: To) {
      const path = typeof to === 'string' ? to : pathOf({ pathname: '/', search: '', hash: '', ...to });
      return path.startsWith('/') && base ? (path === '/' ? base : base + path) : path;
    },
  };
}

/** HTML5 history under the base URL. */
export function createBrowserRouter(routes: RouteObject[], options: { basename?: string } = {}) {
  return createRouter(routes, options.basename ?? '', {
    read: () => ({ url: pathOf(window.location), entry: window.history.state as EntryState | null }),
    write: (url, entry, replace) => (replace ? window.history.replaceState(entry, '', url) : window.history.pushState(entry, '', url)),
    go: (delta) => window.history.go(delta),
    listen: (onPop) => window.addEventListener('popstate', onPop),
  });
}

/** History kept in memory, for tests. */
export function createMemoryRouter(routes: RouteObject[], options: { initialEntries?: string[] } = {}) {
  const entries: { url: string; entry: EntryState | null }[] = (options.initialEntries ?? ['/']).map((url) => ({ url, entry: null }));
  let current = entries.length - 1;
  let onPop = () => {};
  return createRouter(routes, '', {
    read: () => entries[current] ?? { url: '/', entry: null },
    write: (url, entry, replace) => {
      if (!replace) entries.splice(++current);
      entries[current] = { url, entry };
    },
    go: (delta) => {
      current = Math.min(Math.max(current + delta, 0), entries.length - 1);
      setTimeout(onPop);
    },
    listen: (listener) => (onPop = listener),
  });
}
