import type { TokenPayload } from '@burrow/protocol';

/**
 * Reads a JWT's payload without verifying it: the server verifies every call; the client only
 * needs the user claims and the expiry. Returns undefined for anything that is not a JWT.
 */
export function decodeToken(token: string): TokenPayload | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    const payload = JSON.parse(new TextDecoder().decode(bytes)) as TokenPayload;
    if (!payload || typeof payload !== 'object' || !payload.user || typeof payload.exp !== 'number') return undefined;
    return payload;
  } catch {
    return undefined;
  }
}
