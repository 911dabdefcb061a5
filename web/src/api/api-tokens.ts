import type { ApiToken, ApiTokenCreateRequest, ApiTokenCreated } from '@burrow/protocol';
import { ApiTokensPath } from '@burrow/protocol/api-token-constants';
import { request, requestJson } from './http-client';

export function listApiTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  return requestJson(ApiTokensPath, { signal });
}

/** The new token, with its secret shown this once. */
export function createApiToken(body: ApiTokenCreateRequest): Promise<ApiTokenCreated> {
  return requestJson(ApiTokensPath, { method: 'POST', body });
}

export async function revokeApiToken(id: string): Promise<void> {
  await request(`${ApiTokensPath}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
