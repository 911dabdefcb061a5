/** The app's router: history under the base URL, the route table's matching, links and guards. */
export { createBrowserRouter, createMemoryRouter, isRouteErrorResponse, type RouteObject } from './router';
export { Link, MemoryRouter, Navigate, NavLink, Outlet, RouterProvider, useBlocker, useLocation, useNavigate, useParams, useRouteError, useSearchParams } from './components';
