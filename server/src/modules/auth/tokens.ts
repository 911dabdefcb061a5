import crypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { TokenPayload, TokenUser } from '@burrow/protocol';
import type { UserRecord } from '../users/users.model.js';

const TOKEN_ISSUER = 'Burrow';

function toTokenUser(user: UserRecord): TokenUser {
  return {
    id: user.id,
    locale: user.locale,
    viewMode: user.viewMode,
    singleClick: user.singleClick,
    redirectAfterCopyMove: user.redirectAfterCopyMove,
    perm: user.perm,
    commands: user.commands,
    lockPassword: user.lockPassword,
    hideDotfiles: user.hideDotfiles,
    dateFormat: user.dateFormat,
    username: user.username,
    aceEditorTheme: user.aceEditorTheme,
  };
}

const importedKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

/**
 * The signing key as an HMAC-SHA-256 key object, imported once per key: given raw bytes, the
 * token library imports them again on every call, a cost every authenticated request paid.
 */
function hmacKey(key: Uint8Array): Promise<CryptoKey> {
  let imported = importedKeys.get(key);
  if (!imported) {
    imported = crypto.webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    importedKeys.set(key, imported);
  }
  return imported;
}

export async function signToken(user: UserRecord, key: Uint8Array, lifetimeSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ user: toTokenUser(user), ims: Date.now() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .setJti(crypto.randomBytes(16).toString('base64url'))
    .sign(await hmacKey(key));
}

export type VerifiedToken = { payload: TokenPayload & { ims?: number }; expired: boolean };

/** Milliseconds at which a token was issued (finer than `iat`, for revocation). */
export function issuedAtMs(payload: TokenPayload & { ims?: number }): number {
  return typeof payload.ims === 'number' ? payload.ims : payload.iat * 1000;
}

/**
 * Verifies an HS256 token (no other algorithm is accepted; `exp` is required). An expired but
 * correctly signed token is reported as such so proxy authentication can decide; anything else
 * invalid returns undefined.
 */
export async function verifyToken(token: string, key: Uint8Array): Promise<VerifiedToken | undefined> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(key), { algorithms: ['HS256'], requiredClaims: ['exp', 'iat'] });
    if (!isPayload(payload)) return undefined;
    return { payload, expired: false };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      const payload = error.payload;
      if (isPayload(payload)) return { payload, expired: true };
    }
    return undefined;
  }
}

function isPayload(payload: unknown): payload is TokenPayload {
  const candidate = payload as TokenPayload;
  return Boolean(candidate && typeof candidate.exp === 'number' && candidate.user && Number.isInteger(candidate.user.id));
}

/** The JWT from X-Auth when it has exactly two dots. */
export function looksLikeJwt(value: string | undefined): value is string {
  return typeof value === 'string' && value.split('.').length === 3;
}
