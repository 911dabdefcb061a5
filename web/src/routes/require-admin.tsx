import { Navigate, Outlet } from '../lib/router';
import { useSession } from '../stores/session-store';

/** Routes below are for admins; anyone else gets the 403 page. */
export function RequireAdmin() {
  const isAdmin = useSession((state) => state.user?.perm.admin ?? false);
  if (!isAdmin) return <Navigate to="/403" replace />;
  return <Outlet />;
}
