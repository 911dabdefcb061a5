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
  /** Identity of the target when the link was made; absent for links made before it was kept. */
  target?: TargetIdentity;
  /** Set for an upload-only link (a file request): visitors may only add files to the folder. */
  request?: FileRequestSettings;
};

/** What a file request allows. Limits of 0 mean none. */
export type FileRequestSettings = {
  note: string;
  maxFileSize: number;
  maxTotalSize: number;
  maxFiles: number;
};

export function isFileRequest(share: ShareRecord): share is ShareRecord & { request: FileRequestSettings } {
  return share.request !== undefined;
}

/**
 * Which file or folder a link was made for: device and inode, as decimal text, and the birth
 * time in nanoseconds where the filesystem keeps one. Inode numbers are reused as soon as they
 * are freed, so a file deleted and written again often gets the same one: the birth time tells
 * them apart.
 */
export type TargetIdentity = { dev: string; ino: string; birth?: string };

export function sameTarget(a: TargetIdentity, b: TargetIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && (a.birth === undefined || b.birth === undefined || a.birth === b.birth);
}

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
