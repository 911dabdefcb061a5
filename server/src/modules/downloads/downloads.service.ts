import fsp from 'node:fs/promises';
import type fs from 'node:fs';
import type { Usage } from '@burrow/protocol';
import { notFound } from '../../errors.js';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import type { Scopes } from '../../storage/scopes.js';
import type { UserRecord } from '../users/users.model.js';

export type ReadTarget = { scope: Scope; resolved: ResolvedPath & { stat: fs.Stats } };

export type DownloadsService = ReturnType<typeof createDownloadsService>;

/** Read access for downloads, previews, subtitles and usage: everything through the scope gate. */
export function createDownloadsService({ scopes }: { scopes: Scopes }) {
  /**
   * Resolves an existing entry for reading: 403 when the rules deny it or a link leaves the
   * scope, 404 when it is missing or a dangling link.
   */
  async function resolveExisting(user: UserRecord, decoded: string): Promise<ReadTarget> {
    const scope = await scopes.forUser(user);
    const resolved = await scope.resolve(decoded, 'read');
    if (!resolved.stat || resolved.stat.isSymbolicLink()) throw notFound();
    return { scope, resolved: resolved as ReadTarget['resolved'] };
  }

  return {
    resolveExisting,

    /** Total and used bytes of the filesystem holding a folder; a file answers zeros. */
    async usage(user: UserRecord, decoded: string): Promise<Usage> {
      const { resolved } = await resolveExisting(user, decoded);
      if (!resolved.stat.isDirectory()) return { total: 0, used: 0 };
      const stats = await fsp.statfs(resolved.real);
      return { total: stats.blocks * stats.bsize, used: (stats.blocks - stats.bfree) * stats.bsize };
    },
  };
}
