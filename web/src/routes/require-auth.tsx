import { Navigate, Outlet, useLocation } from '../lib/router';
import { useSession } from '../stores/session-store';

/** Routes below need a session; without one, go to the login page and come back afterwards. */
export function RequireAuth() {
  const user = useSession((state) => state.user);
  const logoutTarget = useSession((state) => state.logoutTarget);
  const location = useLocation();
  if (!user && logoutTarget) return <Navigate to={logoutTarget} replace />;
  if (!user) {
    const redirect = location.pathname + location.search + location.hash;
    return <Navigate to={`/login?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  return <Outlet />;
}
