import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes as appRoutes } from '../../routes/route-table';
import { Link, Navigate, NavLink, Outlet, RouterProvider, createBrowserRouter, createMemoryRouter, isRouteErrorResponse, useBlocker, useLocation, useNavigate, useParams, useRouteError, useSearchParams, type RouteObject } from '.';
import { matchRoutes, rankRoutes } from './match';
import { deferred } from '../deferred';

const ranked = rankRoutes(appRoutes);
/** The path of the route table's leaf a pathname lands on, and its params. */
function leafOf(pathname: string) {
  const match = matchRoutes(ranked, pathname);
  return { path: match?.routes.at(-1)?.path, index: match?.routes.at(-1)?.index, params: match?.params };
}

function Where() {
  const location = useLocation();
  return <output aria-label="where">{location.pathname + location.search + location.hash}</output>;
}

function ErrorText() {
  const error = useRouteError();
  return <p role="alert">{isRouteErrorResponse(error) ? `status ${error.status}` : error instanceof Error ? error.message : String(error)}</p>;
}

const where = () => screen.getByRole('status', { hidden: true, name: 'where' }).textContent;

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('matching', () => {
  it('ranks static segments over params over splats', () => {
    expect(leafOf('/settings/users/new').path).toBe('users/new');
    expect(leafOf('/settings/users/7')).toMatchObject({ path: 'users/:id', params: { id: '7' } });
    expect(leafOf('/settings').index).toBe(true);
    expect(leafOf('/settings/').index).toBe(true);
    expect(leafOf('/login').path).toBe('login');
    expect(leafOf('/403').path).toBe('403');
    expect(leafOf('/a/b')).toMatchObject({ path: '*', params: { '*': 'a/b' } });
    expect(leafOf('/settings/users/new/x')).toMatchObject({ path: '*', params: { '*': 'settings/users/new/x' } });
    expect(leafOf('/FILES/x')).toMatchObject({ path: 'files/*', params: { '*': 'x' } });
  });

  it('decodes params segment by segment, an encoded slash included', () => {
    expect(leafOf('/files/a%20b/c%23d').params).toEqual({ '*': 'a b/c#d' });
    expect(leafOf('/files/a%2Fb').params).toEqual({ '*': 'a/b' });
    expect(leafOf('/files/%E2%82%AC/x%25y').params).toEqual({ '*': '€/x%y' });
    expect(leafOf('/files/bad%E2').params).toEqual({ '*': 'bad%E2' });
    expect(leafOf('/files').params).toEqual({ '*': '' });
    expect(leafOf('/files//x').params).toEqual({ '*': '/x' });
    expect(leafOf('/share/abc/d%20e/')).toMatchObject({ path: 'share/*', params: { '*': 'abc/d e/' } });
    expect(leafOf('/settings/users/a%20b').params).toEqual({ id: 'a b' });
  });
});

function Params() {
  const params = useParams();
  return <p>params {JSON.stringify(params)}</p>;
}

function Search() {
  const [params] = useSearchParams();
  return <p>mode {params.get('mode')}</p>;
}

describe('rendering', () => {
  it('nests layouts and guards through outlets and gives the params', () => {
    let isAllowed = false;
    function Guard() {
      return isAllowed ? <Outlet /> : <Navigate to="/login?from=guard" replace />;
    }
    const router = createMemoryRouter(
      [
        {
          element: (
            <main>
              layout <Outlet />
            </main>
          ),
          children: [
            { path: 'login', element: <Search /> },
            { element: <Guard />, children: [{ path: 'users/:id', element: <Params /> }] },
          ],
        },
      ],
      { initialEntries: ['/users/a%20b'] },
    );
    render(<RouterProvider router={router} />);
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('main').textContent).toBe('layout mode ');
    expect(router.state.location.search).toBe('?from=guard');

    isAllowed = true;
    act(() => void router.navigate('/users/a%20b?mode=x'));
    expect(screen.getByText('params {"id":"a b"}')).toBeTruthy();
  });

  it('reads the search params', () => {
    const router = createMemoryRouter([{ path: 'login', element: <Search /> }], { initialEntries: ['/login?mode=signup&x=1'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByText('mode signup')).toBeTruthy();
  });

  it('waits for the root loader before the first render, shows the fallback meanwhile, and runs it once', async () => {
    const started = deferred();
    const loader = vi.fn(() => started.promise);
    const router = createMemoryRouter([{ loader, HydrateFallback: () => <p>starting</p>, element: <Outlet />, children: [{ path: '*', element: <Where /> }] }], { initialEntries: ['/a'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByText('starting')).toBeTruthy();
    await act(async () => started.resolve());
    expect(where()).toBe('/a');
    await act(() => router.navigate('/b'));
    expect(where()).toBe('/b');
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('fetches a lazy screen before it shows, keeping the current one meanwhile', async () => {
    const fetched = deferred<{ Component: () => ReactNode }>();
    const router = createMemoryRouter([
      { path: '/', element: <p>home</p> },
      { path: 'late', lazy: () => fetched.promise },
    ]);
    render(<RouterProvider router={router} />);
    let navigation!: Promise<void>;
    act(() => void (navigation = router.navigate('/late')));
    expect(screen.getByText('home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    await act(async () => {
      fetched.resolve({ Component: () => <p>late screen</p> });
      await navigation;
    });
    expect(screen.getByText('late screen')).toBeTruthy();
  });

  it('shows a render error and a failed screen fetch inside the layout, and leaves it on the next navigation', async () => {
    function Broken(): ReactNode {
      throw new Error('broken screen');
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = createMemoryRouter([
      {
        errorElement: <ErrorText />,
        element: (
          <main>
            <Outlet />
          </main>
        ),
        children: [
          {
            errorElement: <ErrorText />,
            children: [
              { path: 'broken', element: <Broken /> },
              { path: 'missing', lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) },
              { path: '*', element: <Where /> },
            ],
          },
        ],
      },
    ]);
    render(<RouterProvider router={router} />);
    act(() => void router.navigate('/broken'));
    expect(screen.getByRole('main').textContent).toBe('broken screen');
    await act(() => router.navigate('/fine'));
    expect(where()).toBe('/fine');
    await act(() => router.navigate('/missing'));
    expect(screen.getByRole('main').textContent).toBe('Failed to fetch dynamically imported module');
    expect(router.state.location.pathname).toBe('/missing');
  });

  it('fetches a screen whose code failed to arrive again on the next visit', async () => {
    let attempts = 0;
    const lazy = () => {
      attempts++;
      return attempts === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve({ Component: () => <p>arrived</p> });
    };
    const router = createMemoryRouter([
      {
        errorElement: <ErrorText />,
        element: (
          <main>
            <Outlet />
          </main>
        ),
        children: [{ path: 'late', lazy }, { path: '*', element: <Where /> }],
      },
    ]);
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/late'));
    expect(screen.getByRole('alert').textContent).toBe('Failed to fetch dynamically imported module');
    await act(() => router.navigate('/elsewhere'));
    await act(() => router.navigate('/late'));
    expect(screen.getByRole('main').textContent).toBe('arrived');
    expect(attempts).toBe(2);
  });

  it('answers 404 at the root outside the route table', () => {
    const router = createMemoryRouter([{ errorElement: <ErrorText />, children: [{ path: 'a', element: <p>a</p> }] }], { initialEntries: ['/b'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('alert').textContent).toBe('status 404');
  });
});

describe('links and the base URL', () => {
  function Links() {
    const navigate = useNavigate();
    return (
      <>
        <Link to="/files/a%20b/">files</Link>
        <Link to="/">home</Link>
        <NavLink to="/settings" className={({ isActive }) => (isActive ? 'on' : 'off')}>
          settings
        </NavLink>
        <NavLink to="/settings" end className={({ isActive }) => (isActive ? 'on' : 'off')}>
          settings only
        </NavLink>
        <button type="button" onClick={() => navigate('/settings/profile?tab=1#top', { state: { from: 'button' } })}>
          go
        </button>
        <button type="button" onClick={() => navigate(-1)}>
          back
        </button>
        <Where />
      </>
    );
  }

  it('keeps links and navigations under the base URL and leaves modified clicks to the browser', async () => {
    window.history.replaceState(null, '', '/burrow/settings');
    const router = createBrowserRouter([{ path: '*', element: <Links /> }], { basename: '/burrow/' });
    render(<RouterProvider router={router} />);
    expect(where()).toBe('/settings');
    const files = screen.getByRole('link', { name: 'files' });
    expect(files.getAttribute('href')).toBe('/burrow/files/a%20b/');
    expect(screen.getByRole('link', { name: 'home' }).getAttribute('href')).toBe('/burrow');

    // What the router left alone is seen at the document, then held back: the test page cannot open tabs.
    const defaults: boolean[] = [];
    const keep = (event: MouseEvent) => {
      defaults.push(!event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener('click', keep);
    fireEvent.click(files, { ctrlKey: true });
    fireEvent.click(files, { metaKey: true });
    fireEvent.click(files, { shiftKey: true });
    fireEvent.click(files, { button: 1 });
    document.removeEventListener('click', keep);
    expect(defaults).toEqual([true, true, true, true]);
    expect(where()).toBe('/settings');

    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(where()).toBe('/settings/profile?tab=1#top'));
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/burrow/settings/profile?tab=1#top');
    expect(router.state.location.state).toEqual({ from: 'button' });
    const profile = { settings: screen.getByRole('link', { name: 'settings' }), only: screen.getByRole('link', { name: 'settings only' }) };
    expect(profile.settings.className).toBe('on');
    expect(profile.settings.getAttribute('aria-current')).toBe('page');
    expect(profile.only.className).toBe('off');
    expect(profile.only.getAttribute('aria-current')).toBeNull();

    expect(fireEvent.click(files)).toBe(false);
    await waitFor(() => expect(where()).toBe('/files/a%20b/'));
    expect(window.location.pathname).toBe('/burrow/files/a%20b/');

    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    await waitFor(() => expect(where()).toBe('/settings/profile?tab=1#top'));
    expect(router.state.location.state).toEqual({ from: 'button' });
  });

  it('replaces the entry with Navigate replace and with a link to where the app already is', async () => {
    window.history.replaceState(null, '', '/old');
    const router = createBrowserRouter([
      { path: 'old', element: <Navigate to="/new" replace /> },
      { path: '*', element: <Links /> },
    ]);
    render(<RouterProvider router={router} />);
    await waitFor(() => expect(where()).toBe('/new'));
    // The position of the entry in the history, which the router keeps in its state.
    const position = () => (window.history.state as { idx: number }).idx;
    expect(position()).toBe(0);
    fireEvent.click(screen.getByRole('link', { name: 'home' }));
    await waitFor(() => expect(where()).toBe('/'));
    expect(position()).toBe(1);
    fireEvent.click(screen.getByRole('link', { name: 'home' }));
    await act(async () => undefined);
    expect(position()).toBe(1);
  });
});

describe('blocker', () => {
  function Editor() {
    const [isDirty, setDirty] = useState(true);
    const blocker = useBlocker(({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname);
    return (
      <>
        <p>blocker {blocker.state}</p>
        <Link to="/elsewhere">leave</Link>
        <button type="button" onClick={() => blocker.reset?.()}>
          stay
        </button>
        <button type="button" onClick={() => blocker.proceed?.()}>
          go on
        </button>
        <button type="button" onClick={() => setDirty(false)}>
          clean
        </button>
        <Where />
      </>
    );
  }

  const routes: RouteObject[] = [
    { path: 'edit', element: <Editor /> },
    { path: '*', element: <Where /> },
  ];

  it('holds an in-app navigation: reset stays, proceed goes', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/edit'] });
    render(<RouterProvider router={router} />);
    fireEvent.click(screen.getByRole('link', { name: 'leave' }));
    await screen.findByText('blocker blocked');
    expect(where()).toBe('/edit');
    fireEvent.click(screen.getByRole('button', { name: 'stay' }));
    await screen.findByText('blocker unblocked');
    expect(where()).toBe('/edit');

    fireEvent.click(screen.getByRole('link', { name: 'leave' }));
    await screen.findByText('blocker blocked');
    fireEvent.click(screen.getByRole('button', { name: 'go on' }));
    await waitFor(() => expect(where()).toBe('/elsewhere'));
  });

  it('holds the browser back button: reset stays, proceed goes back', async () => {
    window.history.replaceState(null, '', '/list');
    const router = createBrowserRouter(routes);
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/edit'));
    expect(window.location.pathname).toBe('/edit');

    act(() => window.history.back());
    await screen.findByText('blocker blocked');
    await waitFor(() => expect(window.location.pathname).toBe('/edit'));
    expect(where()).toBe('/edit');
    fireEvent.click(screen.getByRole('button', { name: 'stay' }));
    await screen.findByText('blocker unblocked');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(window.location.pathname).toBe('/edit');
    expect(where()).toBe('/edit');

    act(() => window.history.back());
    await screen.findByText('blocker blocked');
    fireEvent.click(screen.getByRole('button', { name: 'go on' }));
    await waitFor(() => expect(where()).toBe('/list'));
    expect(window.location.pathname).toBe('/list');
  });

  it('lets everything through once the function says so', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/edit'] });
    render(<RouterProvider router={router} />);
    fireEvent.click(screen.getByRole('button', { name: 'clean' }));
    fireEvent.click(screen.getByRole('link', { name: 'leave' }));
    await waitFor(() => expect(where()).toBe('/elsewhere'));
  });
});
