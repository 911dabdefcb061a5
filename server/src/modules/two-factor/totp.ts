import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Otplib from 'otplib';

/** The TOTP library loads when two-factor sign-in is first used (its CommonJS build: the calls stay synchronous). */
let otplib: typeof Otplib | undefined;
function totpLibrary(): typeof Otplib {
  otplib ??= createRequire(import.meta.url)('otplib') as typeof Otplib;
  return otplib;
}

/** 30-second steps, six digits, SHA-1: what every authenticator app reads from a QR code. */
const TOTP_PERIOD = 30;

export function newSecret(): string {
  return totpLibrary().generateSecret({ length: 20 });
}

/** The otpauth URI an authenticator app scans: issuer and account name shown in the app. */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  return totpLibrary().generateURI({ issuer, label: account, secret, period: TOTP_PERIOD });
}

/**
 * The time step a code belongs to when it is right for `secret` now, one step either side
 * allowed for clock drift, and later than `afterStep` (a step already used is never accepted
 * again); undefined otherwise.
 */
export async function matchingStep(secret: string, code: string, afterStep: number | null, now = Date.now()): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = await totpLibrary().verify({
      secret,
      token: code,
      period: TOTP_PERIOD,
      epoch: Math.floor(now / 1000),
      epochTolerance: TOTP_PERIOD,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Secrets are stored encrypted (AES-256-GCM) under a key derived from the server's signing key,
 * so a copy of the two-factor table alone, or a log of its rows, does not give them away.
 */
export function createSecretBox(signingKey: Uint8Array) {
  const key = Buffer.from(crypto.hkdfSync('sha256', signingKey, Buffer.alloc(0), 'burrow two-factor secrets', 32));
  return {
    seal(secret: string): string {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    /** The secret, or undefined when the value was not sealed with this key. */
    open(value: string): string | undefined {
      const [version, iv, sealed, tag] = value.split('.');
      if (version !== 'v1' || !iv || !sealed || !tag) return undefined;
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** Crockford-style base 32 without look-alikes: recovery codes are typed by hand. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A recovery code: 10 characters (50 bits) written as two groups of five. */
export function newRecoveryCode(): string {
  const bytes = crypto.randomBytes(10);
  let text = '';
  for (const byte of bytes) text += RECOVERY_ALPHABET[byte & 31];
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** What a typed recovery code is compared as: lower case, no spaces or dashes. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return crypto.createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
}
