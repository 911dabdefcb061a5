import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Scope } from '../../storage/scoped-fs.js';
import { forbidden } from '../../errors.js';
import { joinVirtual } from '../../storage/virtual-path.js';

/**
 * With rules in place, copy, move and delete check every descendant of a folder (and, for copy
 * and move, where it would land): one denied entry refuses the whole operation with 403, so a
 * rule can never be bypassed by acting on a parent folder. Links are not descended. Hidden
 * dotfiles take no part here: they go along with the folder that holds them, as upstream's.
 */
export async function assertDescendantsAllowed(scope: Scope, real: string, virtual: string, destination?: string): Promise<void> {
  if (!scope.hasRules) return;
  const walk = async (folderReal: string, relative: string): Promise<void> => {
    let dirents;
    try {
      dirents = await fsp.readdir(folderReal, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const dirent of dirents) {
      const childRelative = relative ? `${relative}/${dirent.name}` : dirent.name;
      if (!scope.rulesAllow(joinVirtual(virtual, childRelative))) throw forbidden();
      if (destination !== undefined && !scope.rulesAllow(joinVirtual(destination, childRelative))) throw forbidden();
      if (dirent.isDirectory()) await walk(path.join(folderReal, dirent.name), childRelative);
    }
  };
  await walk(real, '');
}
