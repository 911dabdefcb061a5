import type { ArchiveFormat, Resource, ResourceItem } from '@burrow/protocol';
import { isApiError } from '../../api/api-error';
import { archiveUrl, deleteResource, fetchResource, folderArchiveUrl, rawUrl, transferResource } from '../../api/resources';
import type { ReplaceRenameChoice } from '../../dialogs/dialog-types';
import { filesRoute, joinPath, parentPath, withoutTrailingSlash } from '../../lib/paths';
import { navigateTo } from '../../lib/navigation';
import { queryClient } from '../../lib/query-client';
import { clearClipboard, putInClipboard, useClipboard, type ClipboardItem } from '../../stores/clipboard-store';
import { openDialog } from '../../stores/dialog-store';
import { clearSelection, preselect } from '../../stores/selection-store';

/** Folder paths carry a trailing slash in routes and comparisons. */
export function asFolder(path: string): string {
  return path.endsWith('/') ? path : path + '/';
}

/** Refetches the listing on screen (and marks every other cached folder stale) and the usage bar. */
export async function reloadListings(): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: ['resource'] }), queryClient.invalidateQueries({ queryKey: ['usage'] })]);
}

/**
 * Takes moved items out of every cached listing at once. A folder they left is only marked stale
 * by a reload; shown again from the cache, it would list them until its new listing arrived.
 */
export function forgetMovedItems(paths: readonly string[]): void {
  if (paths.length === 0) return;
  const gone = new Set(paths.map(withoutTrailingSlash));
  queryClient.setQueriesData<Resource>({ queryKey: ['resource'] }, (cached) => {
    if (!cached?.items?.some((item) => gone.has(withoutTrailingSlash(item.path)))) return cached;
    const kept = cached.items.filter((item) => !gone.has(withoutTrailingSlash(item.path)));
    const dirs = kept.filter((item) => item.isDir).length;
    return { ...cached, items: kept, numDirs: dirs, numFiles: kept.length - dirs };
  });
}

/** Runs `task` for every item, a few at a time; all run even when some fail, then the first failure is thrown. */
async function forEachLimited<T>(entries: readonly T[], limit: number, task: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < entries.length) {
      const entry = entries[next++]!;
      try {
        await task(entry);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, worker));
  if (failure !== undefined) throw failure;
}

/**
 * The item to preselect after deleting some: the one before the first deleted item in display
 * order, or failing that the first one that remains.
 */
function itemBeforeDeleted(ordered: readonly ResourceItem[], deleted: ReadonlySet<string>): string | undefined {
  const first = ordered.findIndex((item) => deleted.has(item.path));
  for (let index = first - 1; index >= 0; index -= 1) if (!deleted.has(ordered[index]!.path)) return ordered[index]!.path;
  return ordered.find((item) => !deleted.has(item.path))?.path;
}

/** Deletes the items, reloads the listing and preselects the item before them. */
export async function deleteItems(items: readonly ResourceItem[], ordered: readonly ResourceItem[]): Promise<void> {
  const deleted = new Set(items.map((item) => item.path));
  const next = itemBeforeDeleted(ordered, deleted);
  try {
    await forEachLimited(items, 4, (item) => deleteResource(item.path));
  } finally {
    clearSelection();
    await reloadListings();
    if (next) preselect(next);
  }
}

/** Deletes the file on screen and goes back to its folder. */
export async function deleteFile(path: string): Promise<void> {
  await deleteResource(path);
  await reloadListings();
  navigateTo(filesRoute(parentPath(path)));
  preselect(path);
}

/**
 * Renames an item within its folder. A name already taken there asks the replace-rename
 * question: replace overwrites the other item, rename lets the server pick the first free
 * `name(N)`. Returns the path the item ended at, or null when the question was cancelled.
 */
export async function renameInPlace(path: string, name: string): Promise<string | null> {
  const from = withoutTrailingSlash(path);
  const folder = parentPath(from);
  const to = joinPath(folder, name);
  try {
    await transferResource('rename', from, to);
    return to;
  } catch (error) {
    if (!isApiError(error) || error.code !== 'conflict') throw error;
  }
  const choice = await askReplaceOrRename([name]);
  if (choice === 'cancel') return null;
  if (choice === 'replace') {
    await transferResource('rename', from, to, { override: true });
    return to;
  }
  // The server chooses the free name; it is the one name the folder did not have before.
  const before = new Set(((await fetchResource(folder)).items ?? []).map((item) => item.name));
  await transferResource('rename', from, to, { rename: true });
  const landed = ((await fetchResource(folder)).items ?? []).find((item) => !before.has(item.name));
  return landed ? withoutTrailingSlash(landed.path) : to;
}

/**
 * Renames an item in its folder. In a listing the folder reloads with the renamed item
 * preselected; for the file on screen the page moves to the new path. Resolves to false when a
 * clash question was cancelled, so the rename dialog stays open for another name.
 */
export async function renameItem(item: Pick<ResourceItem, 'path' | 'isDir'>, name: string, isFileOnScreen: boolean): Promise<boolean> {
  const to = await renameInPlace(item.path, name);
  if (to === null) return false;
  await reloadListings();
  if (isFileOnScreen) navigateTo(filesRoute(item.isDir ? to + '/' : to), { replace: true });
  else preselect(to);
  return true;
}

/** Asks the replace-rename question; closing the dialog any other way answers cancel. */
function askReplaceOrRename(names: string[]): Promise<ReplaceRenameChoice> {
  return new Promise((resolve) => openDialog('replace-rename', { names, onChoice: resolve }));
}

export type TransferKind = 'copy' | 'move';

/** The listing of a folder after a change: the refreshed cache when it is on screen, else a fresh request. */
async function freshListing(folder: string): Promise<ResourceItem[]> {
  const key = ['resource', folder];
  const state = queryClient.getQueryState(key);
  // A folder's first items only (a big folder still loading) are not its listing.
  if (state?.data && !state.isInvalidated && !(state.data as Resource).partial) return (state.data as Resource).items ?? [];
  const listing = await queryClient.fetchQuery({ queryKey: key, queryFn: ({ signal }) => fetchResource(folder, signal), staleTime: 0 });
  return listing.items ?? [];
}

/**
 * Copies or moves items into a folder, following spec section 4: into the folder they come from,
 * a copy is always renamed; elsewhere, names already taken at the destination ask whether to
 * replace them or rename the new items (or cancel). Afterwards the listings reload. Returns the
 * first item that landed (to preselect), or null when cancelled.
 */
async function transferItems(kind: TransferKind, items: readonly ClipboardItem[], destinationPath: string, source: string): Promise<{ landed?: string } | null> {
  const destination = asFolder(destinationPath);
  if (items.length === 0) return null;
  const before = await fetchResource(destination);
  const existing = new Set((before.items ?? []).map((item) => item.name));
  let flags = { override: false, rename: false };
  if (destination === asFolder(source)) {
    flags = { override: false, rename: true };
  } else {
    const clashes = items.filter((item) => existing.has(item.name)).map((item) => item.name);
    if (clashes.length > 0) {
      const choice = await askReplaceOrRename(clashes);
      if (choice === 'cancel') return null;
      flags = choice === 'replace' ? { override: true, rename: false } : { override: false, rename: true };
    }
  }
  const moved: string[] = [];
  try {
    // One after another: with renaming, each item must see the names the previous ones took.
    for (const item of items) {
      await transferResource(kind === 'copy' ? 'copy' : 'rename', withoutTrailingSlash(item.from), joinPath(destination, item.name), flags);
      if (kind === 'move') moved.push(item.from);
    }
  } finally {
    forgetMovedItems(moved);
    await reloadListings();
  }
  return { landed: firstLanded(await freshListing(destination), existing, items, flags.override) };
}

/**
 * The first item (folders first, in server order) that a transfer added to a folder: a name
 * that was not there before, or with override the replaced name itself.
 */
function firstLanded(after: readonly ResourceItem[], namesBefore: ReadonlySet<string>, items: readonly ClipboardItem[], isOverride: boolean): string | undefined {
  const wanted = new Set(items.map((item) => item.name));
  const isNew = (item: ResourceItem) => !namesBefore.has(item.name) || (isOverride && wanted.has(item.name));
  const ordered = [...after.filter((item) => item.isDir), ...after.filter((item) => !item.isDir)];
  return ordered.find(isNew)?.path;
}

function toClipboardItems(items: readonly ResourceItem[]): ClipboardItem[] {
  return items.map((item) => ({ from: item.path, name: item.name }));
}

/** Ctrl+C and Ctrl+X: remembers the items (and where they are) for a later paste. */
export function copyToClipboard(key: 'c' | 'x', items: readonly ResourceItem[], folder: string): void {
  if (items.length === 0) return;
  putInClipboard(key, toClipboardItems(items), asFolder(folder));
}

/** Ctrl+V: copies the clipboard's items here, or moves them after a cut and empties the clipboard. */
export async function pasteInto(folder: string): Promise<void> {
  const { key, items, source } = useClipboard.getState();
  if (!key || items.length === 0 || source === null) return;
  const result = await transferItems(key === 'x' ? 'move' : 'copy', items, folder, source);
  if (!result) return;
  if (key === 'x') clearClipboard();
  if (result.landed) preselect(result.landed);
}

/**
 * The move and copy dialogs: after the transfer the folder on screen reloads with the first new
 * item preselected, or, with the redirectAfterCopyMove preference, the destination opens with it.
 * Resolves to false when the clash question was cancelled: the dialog stays for another folder.
 */
export async function transferFromDialog(kind: TransferKind, items: readonly ResourceItem[], destination: string, shownFolder: string, redirect: boolean): Promise<boolean> {
  const result = await transferItems(kind, toClipboardItems(items), destination, shownFolder);
  if (!result) return false;
  const target = asFolder(destination);
  if (target !== asFolder(shownFolder) && redirect) navigateTo(filesRoute(target));
  if (result.landed && (target === asFolder(shownFolder) || redirect)) preselect(result.landed);
  return true;
}

/** Items dropped on a folder move there; conflicts ask as for a paste. */
export async function dropInto(folder: string, items: readonly ResourceItem[], shownFolder: string): Promise<void> {
  const result = await transferItems('move', toClipboardItems(items), folder, shownFolder);
  if (result?.landed && asFolder(folder) === asFolder(shownFolder)) preselect(result.landed);
}

/** Starts a browser download of a URL; the `auth` cookie authenticates it and the browser streams it to disk. */
function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * One selected file downloads as it is; several items or any folder ask for an archive format
 * first and then download the archive of the selection.
 */
export function downloadItems(items: readonly ResourceItem[], folder: string): void {
  if (items.length === 0) return;
  const only = items[0]!;
  if (items.length === 1 && !only.isDir) {
    startDownload(rawUrl(only.path));
    return;
  }
  const names = items.map((item) => item.name);
  openDialog('download', { onChoose: (format: ArchiveFormat) => startDownload(archiveUrl(asFolder(folder), names, format)) });
}

/** Ctrl+S with nothing selected: the folder on screen as an archive, in the format asked for. */
export function downloadFolder(folder: string): void {
  openDialog('download', { onChoose: (format: ArchiveFormat) => startDownload(folderArchiveUrl(asFolder(folder), format)) });
}
