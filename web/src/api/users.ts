import type { User, UserWriteRequest } from '@burrow/protocol';
import { ApiPaths } from '@burrow/protocol/paths';
import { request, requestJson } from './http-client';

export function listUsers(signal?: AbortSignal): Promise<User[]> {
  return requestJson<User[]>(ApiPaths.users, { signal });
}

export function getUser(id: number, signal?: AbortSignal): Promise<User> {
  return requestJson<User>(`${ApiPaths.users}/${id}`, { signal });
}

/** PUT /api/users/{id} with only the named fields (`which`), as the protocol expects. */
export async function updateUser(id: number, data: Partial<User>, which: string[], currentPassword?: string): Promise<void> {
  const body: UserWriteRequest = { what: 'user', which, data: { ...data, id } };
  if (currentPassword !== undefined) body.current_password = currentPassword;
  await request(`${ApiPaths.users}/${id}`, { method: 'PUT', body });
}

/** POST /api/users; answers the new user's id read from the Location header. */
export async function createUser(data: Partial<User>, currentPassword?: string): Promise<number> {
  const body: UserWriteRequest = { what: 'user', which: [], data };
  if (currentPassword !== undefined) body.current_password = currentPassword;
  const response = await request(ApiPaths.users, { method: 'POST', body });
  const match = /\/(\d+)$/.exec(response.headers.get('location') ?? '');
  return match ? Number(match[1]) : 0;
}

export async function deleteUser(id: number, currentPassword?: string): Promise<void> {
  await request(`${ApiPaths.users}/${id}`, { method: 'DELETE', body: currentPassword === undefined ? {} : { current_password: currentPassword } });
}
