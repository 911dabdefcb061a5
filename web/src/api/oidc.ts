import type { OidcLogoutResponse, OidcSettings, OidcSettingsUpdate } from '@burrow/protocol';
import { Headers } from '@burrow/protocol/paths';
import { OidcPaths } from '@burrow/protocol/oidc-paths';
import { apiUrl, requestJson, requestText } from './http-client';

/** Where the provider's button leads: the server starts the sign-in and redirects to the provider. */
export function oidcLoginUrl(redirect: string | null): string {
  return apiUrl(OidcPaths.login) + (redirect ? `?redirect=${encodeURIComponent(redirect)}` : '');
}

/** Collects the token a finished sign-in left behind (in an HttpOnly cookie only the server reads). */
export function collectOidcSession(): Promise<string> {
  return requestText(OidcPaths.session, { method: 'POST', auth: false });
}

/** Ends the session on the server; answers the provider's end-session URL ('' when it has none). */
export async function oidcLogout(token: string): Promise<string> {
  const answer = await requestJson<OidcLogoutResponse>(OidcPaths.logout, { method: 'POST', headers: { [Headers.auth]: token }, auth: false });
  return answer.endSessionUrl;
}

export function getOidcSettings(signal?: AbortSignal): Promise<OidcSettings> {
  return requestJson<OidcSettings>(OidcPaths.settings, { signal });
}

export function updateOidcSettings(settings: OidcSettingsUpdate): Promise<OidcSettings> {
  return requestJson<OidcSettings>(OidcPaths.settings, { method: 'PUT', body: settings });
}
