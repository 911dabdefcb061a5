/** Endpoints of single sign-on through an OpenID Connect provider. */
export const OidcPaths = {
  /** GET: starts a sign-in (redirects to the provider); `?redirect=` names where the app goes after. */
  login: '/api/oidc/login',
  /** GET: where the provider sends the browser back (register this URL at the provider). */
  callback: '/api/oidc/callback',
  /** POST: trades the short-lived hand-off cookie set by the callback for a token (text/plain). */
  session: '/api/oidc/session',
  /** POST: ends the Burrow session; answers JSON `{ endSessionUrl }` (empty when the provider has none). */
  logout: '/api/oidc/logout',
  /** GET and PUT (admins): the single sign-on settings. */
  settings: '/api/oidc/settings',
} as const;

/** Why a sign-in came back to the login page without a session (`?sso-error=` on /login). */
export const OidcErrors = ['state', 'denied', 'failed', 'not-allowed', 'no-account', 'disabled'] as const;
export type OidcError = (typeof OidcErrors)[number];
