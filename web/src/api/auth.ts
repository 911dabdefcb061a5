import { ApiPaths, Headers } from '@burrow/protocol/paths';
import { request, requestText } from './http-client';

/** POST /api/login: the answer is the bare token. Empty credentials suit noauth and proxy auth. */
export function login(username: string, password: string, recaptcha = ''): Promise<string> {
  return requestText(ApiPaths.login, { method: 'POST', body: { username, password, recaptcha }, auth: false });
}

/** POST /api/renew with the given token; answers a fresh token for the current stored user. */
export function renew(token: string): Promise<string> {
  return requestText(ApiPaths.renew, { method: 'POST', headers: { [Headers.auth]: token }, auth: false });
}

export async function signup(username: string, password: string): Promise<void> {
  await request(ApiPaths.signup, { method: 'POST', body: { username, password }, auth: false });
}

/** POST /api/logout: revokes the token server-side. */
export async function revokeToken(token: string): Promise<void> {
  await request(ApiPaths.logout, { method: 'POST', headers: { [Headers.auth]: token }, auth: false });
}
