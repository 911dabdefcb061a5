/** A stored share link. Only the presenter turns it into the wire shape. */
export type ShareRecord = {
  /** Public identifier in URLs: 16 random bytes, base64url. */
  hash: string;
  /** Canonical virtual path in the owner's scope; folders end with `/`. */
  path: string;
  userId: number;
  /** Unix seconds; 0 means permanent. */
  expire: number;
  /** argon2id hash of the link password, or '' for an open link. */
  passwordHash: string;
  /** Random bearer token handed to visitors who proved the password, or '' for an open link. */
  token: string;
  createdAt: number;
};

export function isExpired(share: ShareRecord, nowMs = Date.now()): boolean {
  return share.expire !== 0 && share.expire * 1000 <= nowMs;
}

export function isProtected(share: ShareRecord): boolean {
  return share.passwordHash !== '';
}

/** The share's path without the folder marker, for comparisons. */
export function sharePathKey(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
