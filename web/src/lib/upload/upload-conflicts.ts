import type { Resource } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { requestJson } from '../../api/http-client';
import { encodePath, trimmedPath } from '../paths';
import type { UploadPlan } from './upload-entries';

type RecursiveEntry = { path: string; isDir: boolean };

/**
 * The planned files whose target already exists. A flat upload compares against the folder's
 * listing; a nested one against the recursive listing, so only real file clashes count (folders
 * merge).
 */
export async function findConflicts(plan: UploadPlan, folder: string, signal?: AbortSignal): Promise<Set<string>> {
  const existing = new Set<string>();
  if (plan.files.length === 0) return existing;
  if (plan.isNested) {
    const entries = await requestJson<RecursiveEntry[]>(ApiPaths.resourcesRecursive + encodePath(folder), { signal });
    for (const entry of entries) existing.add(trimmedPath(entry.path));
  } else {
    const listing = await requestJson<Resource>(ApiPaths.resources + encodePath(folder), { signal });
    for (const item of listing.items ?? []) existing.add(trimmedPath(item.path));
  }
  return new Set(plan.files.map((entry) => entry.path).filter((path) => existing.has(trimmedPath(path))));
}
