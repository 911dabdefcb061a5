import { Navigate, useLocation } from '../lib/router';

/** Any unknown path is taken as a path inside the files: `/a/b` → `/files/a/b`. */
export function RedirectToFiles() {
  const location = useLocation();
  const path = location.pathname === '/' ? '/' : location.pathname;
  return <Navigate to={`/files${path}${location.search}${location.hash}`} replace />;
}
