import type { Share } from '@burrow/protocol';
import type { ShareRecord } from './shares.model.js';
import type { FileRequestStats } from './file-requests.repository.js';

/** The wire view of a link: a whitelist, so the password hash and token can never leak. */
export function toShareView(share: ShareRecord, options: { username?: string; received?: FileRequestStats } = {}): Share {
  const view: Share = {
    hash: share.hash,
    path: share.path,
    userID: share.userId,
    expire: share.expire,
    hasPassword: share.passwordHash !== '',
  };
  if (options.username !== undefined) view.username = options.username;
  if (share.request) {
    view.uploadOnly = true;
    view.note = share.request.note;
    view.maxFileSize = share.request.maxFileSize;
    view.maxTotalSize = share.request.maxTotalSize;
    view.maxFiles = share.request.maxFiles;
    view.receivedFiles = options.received?.files ?? 0;
    view.receivedBytes = options.received?.bytes ?? 0;
    view.lastReceivedAt = options.received?.lastAt ?? 0;
  }
  return view;
}
