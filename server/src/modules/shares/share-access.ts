import fsp from 'node:fs/promises';
import { forbidden, notFound, unauthorized } from '../../errors.js';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import type { Scopes } from '../../storage/scopes.js';
import { createPasswordGuard, SharePasswordPolicy, type GuessPolicy } from '../auth/password-guard.js';
import type { LimitStore } from '../auth/attempt-limiter.js';
import { verifyPassword as realVerifyPassword } from '../auth/passwords.js';
import type { UserRecord } from '../users/users.model.js';
import type { UsersRepository } from '../users/users.repository.js';
import { looksLikeShareHash, tokensMatch } from './share-secrets.js';
import { isExpired, isFileRequest, isProtected, sameTarget, sharePathKey, type FileRequestSettings, type ShareRecord } from './shares.model.js';
import { targetIdentity } from './share-target.js';

/** How long an item must have held a link's path before a mismatch retires the link for good. */
export const SETTLE_MS = 2_000;
import type { SharesRepository } from './shares.repository.js';
import { canShare } from './shares.service.js';

/** What a visitor presents: the link's token, or its password (still URL-encoded), and where from. */
export type ShareCredentials = {
  token?: string;
  /** The raw `X-SHARE-PASSWORD` header value, URL-encoded by the client. */
  password?: string;
  clientAddress: string;
};

/** An opened link: the visitor may read what lies at and below its target, nothing else. */
export type OpenShare = {
  share: ShareRecord;
  owner: UserRecord;
  /** The target as resolved in the owner's scope. */
  target: ResolvedPath;
  isDir: boolean;
  /**
   * For folder links, the owner's scope narrowed to the shared folder: its `/` is the shared
   * folder, rules are still tested on owner-scope paths, and nothing resolves outside it.
   * For file links, the owner's scope (only `target` may be used with it).
   */
  scope: Scope;
  /** Base name of the shared item as the owner sees it ('' for a shared scope root). */
  name: string;
  /** Resolves a visitor's (decoded) sub-path inside the link; for file links always the file. */
  resolve(decodedSubPath: string): Promise<ResolvedPath>;
};

/** An opened file request: uploads go, as the owner, into `folder` of the owner's scope. */
export type OpenRequest = {
  share: ShareRecord;
  request: FileRequestSettings;
  owner: UserRecord;
  /** The folder's virtual path in the owner's scope (no trailing slash). */
  folder: string;
  /** The folder's base name, shown to uploaders. */
  name: string;
  ownerScope: Scope;
};

export type ShareAccess = ReturnType<typeof createShareAccess>;

/**
 * Limits on password guesses, the link being the account: wrong passwords per (link, client) and
 * per client are refused past their budget; many wrong passwords for one link, from anywhere,
 * slow its password checks down rather than lock the link.
 */
export type ShareAccessLimits = GuessPolicy;

function decodeHeaderPassword(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Opens public links. Checks run in the protocol's order: unknown or expired → 404; protected
 * without a valid token or password → 401 (password attempts rate-limited → 429); owner without
 * share or download → 403; then the target must still exist and be allowed for the owner.
 */
export function createShareAccess(deps: {
  shares: SharesRepository;
  users: UsersRepository;
  scopes: Scopes;
  limits?: Partial<ShareAccessLimits>;
  /** Where guesses are counted (this process by default; the database when instances share it). */
  guessCounts?: LimitStore;
  verifyPassword?: typeof realVerifyPassword;
}) {
  const { shares, users, scopes } = deps;
  const verifyPassword = deps.verifyPassword ?? realVerifyPassword;
  const guard = createPasswordGuard({ ...SharePasswordPolicy, ...(deps.limits ?? {}) }, { limits: deps.guessCounts, name: 'share' });

  async function findLive(hash: string): Promise<{ share: ShareRecord; owner: UserRecord }> {
    if (!looksLikeShareHash(hash)) throw notFound();
    const share = await shares.findByHash(hash);
    if (!share) throw notFound();
    if (isExpired(share)) {
      await shares.remove(share.hash);
      throw notFound();
    }
    const owner = await users.findById(share.userId);
    if (!owner) {
      await shares.removeByUser(share.userId);
      throw notFound();
    }
    return { share, owner };
  }

  async function authorize(share: ShareRecord, credentials: ShareCredentials): Promise<void> {
    if (!isProtected(share)) return;
    if (tokensMatch(credentials.token, share.token)) return;
    const encoded = credentials.password;
    if (!encoded) throw unauthorized();
    const password = decodeHeaderPassword(encoded);
    // Counted as in flight before the hash is checked, so parallel guesses see each other.
    const source = { account: `share:${share.hash}`, client: credentials.clientAddress };
    const valid = await guard.verify(source, async () => password !== undefined && (await verifyPassword(password, share.passwordHash)));
    if (!valid) throw unauthorized();
  }

  /** Whether what lies at `real` has been there, unchanged, for at least `ms`. */
  async function settledSince(real: string, ms: number): Promise<boolean> {
    try {
      return Date.now() - (await fsp.stat(real)).ctimeMs >= ms;
    } catch {
      return false;
    }
  }

  /**
   * The link must still lead to the item it was made for: a path whose file or folder was
   * deleted and made again, or replaced, behind Burrow's back holds a new item, and the link is
   * retired (deleted, 404) rather than serve it. Links made before identities were kept record
   * their target on first use.
   */
  async function assertSameTarget(share: ShareRecord, real: string): Promise<void> {
    const current = await targetIdentity(real);
    if (!current) throw notFound();
    if (!share.target) {
      await shares.setTarget(share.hash, current);
      return;
    }
    if (!sameTarget(share.target, current)) {
      // A save through Burrow renames a new file into place a moment before its file event
      // records the new identity: an item that took the path within the last seconds may be
      // such a save, so it is refused now but the link is kept until the item has settled.
      if (!(await settledSince(real, SETTLE_MS))) throw notFound();
      await shares.remove(share.hash);
      throw notFound();
    }
  }

  async function openTarget(share: ShareRecord, owner: UserRecord): Promise<OpenShare> {
    const ownerScope = await scopes.forUser(owner);
    const key = sharePathKey(share.path);
    const target = await ownerScope.resolve(key, 'read');
    if (!target.stat || target.stat.isSymbolicLink()) throw notFound();
    const isDir = target.stat.isDirectory();
    // A folder link must still be a folder and a file link a file: anything else is a new item.
    if (isDir !== (share.path.endsWith('/') || key === '/')) throw notFound();
    await assertSameTarget(share, target.real);
    const name = key === '/' ? '' : key.slice(key.lastIndexOf('/') + 1);
    if (!isDir) {
      return { share, owner, target, isDir, scope: ownerScope, name, resolve: async () => target };
    }
    const scope = await ownerScope.narrow(key);
    return {
      share,
      owner,
      target,
      isDir,
      scope,
      name,
      async resolve(decodedSubPath: string) {
        // The owner's rules and hidden dotfiles are tested on owner-scope paths by the gate (403).
        const resolved = await scope.resolve(decodedSubPath || '/', 'read');
        if (!resolved.stat) throw notFound();
        return resolved;
      },
    };
  }

  return {
    /**
     * Opens a link for a visitor, or throws 404 / 401 / 429 / 403. An upload-only link (a file
     * request) answers 404 here, before its password is asked for, exactly as a missing link:
     * nothing can be read through it, and its kind is not told to whoever guesses hashes.
     */
    async open(hash: string, credentials: ShareCredentials): Promise<OpenShare> {
      const { share, owner } = await findLive(hash);
      if (isFileRequest(share)) throw notFound();
      await authorize(share, credentials);
      if (!canShare(owner)) throw forbidden();
      return openTarget(share, owner);
    },

    /**
     * Opens an upload-only link for an uploader: 404 for anything else (a normal link included),
     * then the password, then the owner must still have `share` and `create` (403), and the
     * folder must still be the one the link was made for.
     */
    async openRequest(hash: string, credentials: ShareCredentials): Promise<OpenRequest> {
      const { share, owner } = await findLive(hash);
      if (!isFileRequest(share)) throw notFound();
      await authorize(share, credentials);
      if (!owner.perm.share || !owner.perm.create) throw forbidden();
      const open = await openTarget(share, owner);
      if (!open.isDir) throw notFound();
      return { share, request: share.request, owner, folder: sharePathKey(share.path), name: open.name || 'files', ownerScope: await scopes.forUser(owner) };
    },
  };
}
