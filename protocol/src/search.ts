import { Type, type Static } from '@sinclair/typebox';

/** One newline-delimited search result. `path` is relative to the searched folder. */
export const SearchResult = Type.Object({
  dir: Type.Boolean(),
  path: Type.String(),
});
export type SearchResult = Static<typeof SearchResult>;

export { SearchTypes, type SearchType } from './constants.js';
