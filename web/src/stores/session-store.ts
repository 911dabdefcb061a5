import { create } from 'zustand';
import type { TokenUser } from '@burrow/protocol';
import { isApiError } from '../api/api-error';
import { renew, revokeToken } from '../api/auth';
import { oidcLogout } from '../api/oidc';
import { keepEndSessionUrl } from '../lib/sso-logout';
import { configureHttpClient } from '../api/http-client';
import { decodeToken } from '../lib/jwt';
import { navigateTo } from '../lib/navigation';
import { queryClient } from '../lib/query-client';
import { clearStoredToken, storeToken } from '../lib/token-storage';
import { appSettings } from './app-settings-store';
import { useDialogs } from './dialog-store';

type SessionState = {
  token: string | null;
  user: TokenUser | null;
  /** Token expiry in milliseconds since the epoch. */
  expiresAt: number | null;
  /**
   * Where a logout is heading. Guards use it too, so a protected screen that loses its user
   * during logout goes there rather than to a login page with a redirect back.
   */
  logoutTarget: string | null;
};

export const useSession = create<SessionState>(() => ({ token: null, user: null, expiresAt: null, logoutTarget: null }));

// setTimeout stores its delay in 32 bits; longer waits are chained.
const MaxTimerDelay = 2_147_483_647;
let logoutTimer: ReturnType<typeof setTimeout> | undefined;
let pendingRenewal: Promise<void> | undefined;

function clearLogoutTimer() {
  if (logoutTimer !== undefined) clearTimeout(logoutTimer);
  logoutTimer = undefined;
}

function armLogoutTimer(expiresAt: number) {
  clearLogoutTimer();
  const settings = appSettings();
  // With proxy authentication and a custom logout page the server accepts expired tokens backed
  // by the proxy header, so there is nothing to time out.
  if (settings.AuthMethod === 'proxy' && settings.LogoutPage !== '/login') return;
  const delay = expiresAt - Date.now();
  logoutTimer = setTimeout(
    () => {
      if (Date.now() >= expiresAt) void logout('inactivity');
      else armLogoutTimer(expiresAt);
    },
    Math.max(0, Math.min(delay, MaxTimerDelay)),
  );
}

/** Adopts a token: decodes the user, stores it in the cookie and localStorage, arms the expiry timer. */
export function setSessionToken(token: string): void {
  const payload = decodeToken(token);
  if (!payload) throw new Error('the server answered with something that is not a token');
  const expiresAt = payload.exp * 1000;
  storeToken(token, appSettings().BaseURL);
  useSession.setState({ token, user: payload.user, expiresAt, logoutTarget: null });
  armLogoutTimer(expiresAt);
}

/** Renews the token once even when several responses ask for it at the same time. */
export function renewSession(): Promise<void> {
  const { token } = useSession.getState();
  if (!token) return Promise.resolve();
  pendingRenewal ??= renew(token)
    .then((fresh) => {
      // A logout may have happened while the renewal was on its way.
      if (useSession.getState().token === token) setSessionToken(fresh);
    })
    .catch((error: unknown) => {
      if (useSession.getState().token === token && isApiError(error) && error.code === 'unauthorized') void logout();
    })
    .finally(() => {
      pendingRenewal = undefined;
    });
  return pendingRenewal;
}

/**
 * Ends the session: revokes the token on the server, clears cookie, storage and user, then goes
 * to the login page (with the reason), to the configured logout page, or reloads when the
 * session comes from the server itself (no authentication, proxy authentication).
 */
export async function logout(reason?: string): Promise<void> {
  const { token, expiresAt } = useSession.getState();
  clearLogoutTimer();
  const settings = appSettings();
  const target = reason ? `/login?logout-reason=${encodeURIComponent(reason)}` : '/login';
  clearStoredToken(settings.BaseURL);
  useSession.setState({ token: null, user: null, expiresAt: null, logoutTarget: target });
  useDialogs.getState().closeAll();
  queryClient.clear();
  if (token && expiresAt !== null && expiresAt > Date.now()) {
    // With single sign-on the server also answers the provider's logout, which the login page offers.
    if (settings.OIDC?.Enabled) await oidcLogout(token).then(keepEndSessionUrl, () => revokeToken(token).catch(() => undefined));
    else await revokeToken(token).catch(() => undefined);
  }
  if (settings.NoAuth || settings.AuthMethod === 'proxy') {
    window.location.reload();
  } else if (settings.LogoutPage && settings.LogoutPage !== '/login') {
    window.location.assign(settings.LogoutPage);
  } else {
    navigateTo(target);
  }
}

/** Connects the HTTP client to this session: it sends the token, renews it, and logs out on 401. */
export function connectSessionToHttpClient(): void {
  configureHttpClient({
    baseURL: appSettings().BaseURL,
    hooks: {
      getToken: () => useSession.getState().token,
      onRenewRequested: () => void renewSession(),
      onTokenIssued: (token) => {
        try {
          setSessionToken(token);
        } catch {
          // Ignore a malformed header; the current token stays valid until it expires.
        }
      },
      onUnauthorized: () => {
        if (useSession.getState().token) void logout();
      },
    },
  });
}
