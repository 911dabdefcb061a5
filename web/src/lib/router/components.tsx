import { Component, createContext, startTransition, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import type { RouteMatch } from './match';
import { createMemoryRouter, type Blocker, type BlockerFunction, type Location, type NavigateOptions, type Router, type RouterState, type To } from './router';

interface RouterContextValue {
  router: Router;
  state: RouterState;
}

const RouterContext = createContext<RouterContextValue | null>(null);
/** What the route being rendered shows in its `<Outlet/>`. */
const OutletContext = createContext<ReactNode>(null);
const RouteErrorContext = createContext<unknown>(undefined);

function useRouter(): RouterContextValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('Router hooks need a <RouterProvider>.');
  return value;
}

interface BoundaryProps {
  location: Location;
  fallback: ReactNode;
  children: ReactNode;
}

/** Catches what a route's screen throws while rendering; the next location clears it. */
class RouteBoundary extends Component<BoundaryProps, { error: unknown; location: Location }> {
  state = { error: undefined as unknown, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; location: Location }) {
    return props.location === state.location ? null : { error: undefined, location: props.location };
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    return <RouteErrorContext.Provider value={this.state.error}>{this.props.fallback}</RouteErrorContext.Provider>;
  }
}

/** The matched routes, innermost first, each given the one below as its outlet. */
function renderRoutes({ location, match, error }: RouterState & { match: RouteMatch }): ReactNode {
  const shown = error ? match.routes.slice(0, error.index + 1) : match.routes;
  let outlet: ReactNode = null;
  for (const [i, route] of [...shown.entries()].reverse()) {
    let element: ReactNode = route.element ?? (route.Component ? <route.Component /> : outlet);
    if (error && i === error.index) element = <RouteErrorContext.Provider value={error.error}>{route.errorElement}</RouteErrorContext.Provider>;
    element = <OutletContext.Provider value={outlet}>{element}</OutletContext.Provider>;
    if (route.errorElement != null) {
      element = (
        <RouteBoundary location={location} fallback={route.errorElement}>
          {element}
        </RouteBoundary>
      );
    }
    outlet = element;
  }
  return outlet;
}

export function RouterProvider({ router }: { router: Router }) {
  const [state, setState] = useState(router.state);
  useLayoutEffect(() => {
    setState(router.state);
    return router.subscribe((next) => startTransition(() => setState(next)));
  }, [router]);
  const value = useMemo(() => ({ router, state }), [router, state]);
  if (!state.match) {
    const Fallback = router.rootFallback;
    return Fallback ? <Fallback /> : null;
  }
  return <RouterContext.Provider value={value}>{renderRoutes({ ...state, match: state.match })}</RouterContext.Provider>;
}

/** Gives `children` a router in memory, for tests of components with links. */
export function MemoryRouter({ children, initialEntries }: { children: ReactNode; initialEntries?: string[] }) {
  const [router] = useState(() => createMemoryRouter([{ path: '*', element: <OutletSlot /> }], { initialEntries }));
  return (
    <SlotContext.Provider value={children}>
      <RouterProvider router={router} />
    </SlotContext.Provider>
  );
}

const SlotContext = createContext<ReactNode>(null);
function OutletSlot() {
  return useContext(SlotContext);
}

export function Outlet() {
  return useContext(OutletContext);
}

export function useLocation(): Location {
  return useRouter().state.location;
}

export function useParams(): Readonly<Record<string, string | undefined>> {
  return useRouter().state.match?.params ?? {};
}

export function useSearchParams(): readonly [URLSearchParams] {
  const { search } = useLocation();
  return useMemo(() => [new URLSearchParams(search)] as const, [search]);
}

export function useRouteError(): unknown {
  return useContext(RouteErrorContext);
}

export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  const { router } = useRouter();
  return useCallback((to, options) => void router.navigate(to, options), [router]);
}

/** Redirects once rendered. */
export function Navigate({ to, replace, state }: { to: To; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  const target = JSON.stringify(to);
  useEffect(() => {
    navigate(JSON.parse(target) as To, { replace, state });
  }, [navigate, target, replace, state]);
  return null;
}

/** Holds navigations the function refuses (links, navigate(), back and forward) until proceed or reset. */
export function useBlocker(shouldBlock: BlockerFunction): Blocker {
  const { router, state } = useRouter();
  useEffect(() => {
    router.setBlocker(shouldBlock);
  }, [router, shouldBlock]);
  useEffect(() => () => router.setBlocker(undefined), [router]);
  return state.blocker;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To; replace?: boolean; state?: unknown };

/**
 * An anchor that navigates inside the app. A click the page or the browser should handle (a
 * modifier key, another button, another target, a handler that prevented it) keeps its default.
 */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { router, state: routerState } = useRouter();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self') || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // The link to where the app already is replaces the entry instead of adding one.
    const { pathname, search, hash } = routerState.location;
    const isHere = router.resolve(to) === pathname + search + hash;
    void router.navigate(to, { replace: replace ?? isHere, state });
  };
  return <a {...rest} href={router.createHref(to)} target={target} onClick={handleClick} />;
}

type NavLinkProps = Omit<LinkProps, 'className'> & { end?: boolean; className?: (props: { isActive: boolean }) => string };

/** A link that knows when it leads to the current screen (or one below it, unless `end`). */
export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const { router } = useRouter();
  const here = useLocation().pathname.toLowerCase();
  const target = router.resolve(to).replace(/[?#].*$/, '').toLowerCase();
  const slash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const isActive = here === target || (!end && here.startsWith(target) && here.charAt(slash) === '/');
  return <Link {...rest} to={to} className={className?.({ isActive })} aria-current={isActive ? 'page' : undefined} />;
}
