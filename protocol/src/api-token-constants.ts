/**
 * Personal API tokens: `Authorization: Bearer burrow_pat_…` on the API, or the password of
 * WebDAV Basic (any username). Each carries a subset of its owner's permissions, intersected
 * with the owner's current ones on every request.
 */
export const ApiTokensPath = '/api/tokens';
export const ApiTokenPrefix = 'burrow_pat_';

export const ApiTokenPresets = ['readOnly', 'uploadOnly', 'custom'] as const;
export type ApiTokenPreset = (typeof ApiTokenPresets)[number];
