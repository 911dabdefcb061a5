import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileEvent } from '../../storage/file-events.js';
import type { Scopes } from '../../storage/scopes.js';
import { cleanVirtualPath } from '../../storage/virtual-path.js';
import type { UsersRepository } from '../users/users.repository.js';
import { sharePathKey, type ShareRecord } from './shares.model.js';
import type { SharesRepository } from './shares.repository.js';
import { targetIdentity } from './share-target.js';

function isSameOrBelow(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/**
 * Keeps links honest: a link dies with its target (deleted or moved away, including through an
 * ancestor) and with its owner, and follows its target when a write through Burrow replaces it.
 * Access-time checks catch what happens outside Burrow.
 */
export function createShareLifecycle(deps: { shares: SharesRepository; users: UsersRepository; scopes: Scopes }) {
  const { shares, users, scopes } = deps;

  /**
   * Where a link's target lives on disk: the server root joined with the owner's scope and the
   * link path, plus the same with the parent folder's links resolved (a path may run through a
   * symlinked folder). Worked out without creating anything: the scope itself may be what was
   * just deleted.
   */
  async function realCandidates(share: ShareRecord, ownerScope: string, serverRoot: string): Promise<string[]> {
    const absolute = cleanVirtualPath(`${ownerScope || '/'}/${sharePathKey(share.path)}`).path;
    const lexical = absolute === '/' ? serverRoot : path.join(serverRoot, ...absolute.slice(1).split('/'));
    const candidates = [lexical];
    if (absolute !== '/') {
      try {
        candidates.push(path.join(await fsp.realpath(path.dirname(lexical)), path.basename(lexical)));
      } catch {
        // The parent is gone too: the lexical form is what the event reports.
      }
    }
    return candidates;
  }

  /** Deletes every link whose target is `removedReal` or lies below it. */
  async function removeUnder(removedReal: string): Promise<number> {
    const rows = await shares.list();
    if (!rows.length) return 0;
    const owners = new Map((await users.list()).map((user) => [user.id, user]));
    const serverRoot = await scopes.serverRoot();
    const doomed: string[] = [];
    for (const share of rows) {
      const owner = owners.get(share.userId);
      if (!owner) {
        doomed.push(share.hash);
        continue;
      }
      const candidates = await realCandidates(share, owner.scope, serverRoot);
      if (candidates.some((candidate) => isSameOrBelow(removedReal, candidate))) doomed.push(share.hash);
    }
    return shares.removeMany(doomed);
  }

  /**
   * Records the current identity of every link whose target is `writtenReal` (or lies below it):
   * writes through Burrow replace files by renaming a new one into place, and a link to what the
   * owner edited, uploaded over or copied onto must keep working, unlike a replacement made
   * behind Burrow's back (see share-access).
   */
  async function retargetUnder(writtenReal: string): Promise<void> {
    const rows = await shares.list();
    if (!rows.length) return;
    const owners = new Map((await users.list()).map((user) => [user.id, user]));
    const serverRoot = await scopes.serverRoot();
    for (const share of rows) {
      const owner = owners.get(share.userId);
      if (!owner) continue;
      const candidates = await realCandidates(share, owner.scope, serverRoot);
      const written = candidates.find((candidate) => isSameOrBelow(writtenReal, candidate));
      if (written === undefined) continue;
      const current = await targetIdentity(written);
      if (current) await shares.setTarget(share.hash, current);
    }
  }

  async function onFileEvent(event: FileEvent): Promise<void> {
    if (event.kind === 'deleted') {
      // The acting user's links by path (a link through a folder link names another real
      // path), then every owner's links by where their targets are on disk.
      await shares.removeByOwnerUnder(event.user.id, event.virtual);
      await removeUnder(event.real);
    }
    else if (event.kind === 'moved') {
      await removeUnder(event.fromReal);
      await retargetUnder(event.toReal);
    } else if (event.kind === 'modified') await retargetUnder(event.real);
    else if (event.kind === 'copied') await retargetUnder(event.toReal);
  }

  return {
    removeUnder,
    onFileEvent,
    /** A deleted user's links go with them. */
    async onUserDeleted(user: { id: number }): Promise<void> {
      await shares.removeByUser(user.id);
    },
  };
}
