import { AuthCookie } from '@burrow/protocol/paths';

/** Where filebrowser's front end keeps the token; kept for compatibility with existing sessions. */
const TokenStorageKey = 'jwt';

function cookiePath(baseURL: string): string {
  return baseURL || '/';
}

/**
 * Stores the token in localStorage (read at start-up) and in the `auth` cookie, which the server
 * reads for downloads, media sources and the WebSocket, where no header can be sent.
 */
export function storeToken(token: string, baseURL: string): void {
  try {
    localStorage.setItem(TokenStorageKey, token);
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie still carries the session.
  }
  document.cookie = `${AuthCookie}=${token}; Path=${cookiePath(baseURL)}; SameSite=Strict`;
}

export function readStoredToken(): string | null {
  try {
    return localStorage.getItem(TokenStorageKey) || null;
  } catch {
    return null;
  }
}

export function clearStoredToken(baseURL: string): void {
  try {
    localStorage.removeItem(TokenStorageKey);
  } catch {
    // Nothing stored when storage is unavailable.
  }
  document.cookie = `${AuthCookie}=; Max-Age=0; Path=${cookiePath(baseURL)}; SameSite=Strict`;
}
