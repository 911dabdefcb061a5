import { useEffect } from 'react';
import { Navigate, Outlet, useSearchParams } from '../lib/router';
import { useSession } from '../stores/session-store';
import { safeRedirect } from './login/safe-redirect';

/** The login page is for visitors; a logged-in user goes on to the redirect target or the files. */
export function RequireGuest() {
  const user = useSession((state) => state.user);
  const [params] = useSearchParams();

  // The logout has arrived: protected screens may again redirect back after the next login.
  useEffect(() => {
    if (useSession.getState().logoutTarget) useSession.setState({ logoutTarget: null });
  }, []);

  if (user) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return <Outlet />;
}
