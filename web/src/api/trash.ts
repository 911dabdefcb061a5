import type { RestoreRequest, RestoreResult, TrashList, TrashSortField } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { request, requestJson } from './http-client';

/** GET /api/trash: the caller's whole trash, sorted (the screen windows it itself). */
export function listTrash(sort: { by: TrashSortField; asc: boolean }, signal?: AbortSignal): Promise<TrashList> {
  return requestJson<TrashList>(`${ApiPaths.trash}?sort=${sort.by}&asc=${sort.asc}`, { signal });
}

/** POST /api/trash/{id}/restore: 409 when the place is taken and neither choice was made. */
export function restoreFromTrash(id: string, choice: RestoreRequest = {}): Promise<RestoreResult> {
  return requestJson<RestoreResult>(`${ApiPaths.trash}/${encodeURIComponent(id)}/restore`, { method: 'POST', body: choice });
}

/** DELETE /api/trash/{id}: gone for good. */
export async function deleteForever(id: string): Promise<void> {
  await request(`${ApiPaths.trash}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** DELETE /api/trash: empties the caller's trash. */
export async function emptyTrash(): Promise<void> {
  await request(ApiPaths.trash, { method: 'DELETE' });
}
