import type { Share } from '@burrow/protocol';
import type { ShareRecord } from './shares.model.js';

/** The wire view of a link: a whitelist, so the password hash and token can never leak. */
export function toShareView(share: ShareRecord, options: { username?: string } = {}): Share {
  const view: Share = {
    hash: share.hash,
    path: share.path,
    userID: share.userId,
    expire: share.expire,
    hasPassword: share.passwordHash !== '',
  };
  if (options.username !== undefined) view.username = options.username;
  return view;
}
