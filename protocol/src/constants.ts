/**
 * Plain constants with no schema runtime. The web app imports values only from files like this
 * one (and errors.ts, paths.ts, startup.ts), so the TypeBox runtime never reaches the browser bundle.
 */

/** Pattern the login page uses to read the minimum password length from a 400 text. */
export const MinimumLengthPattern = /minimum length is (\d+)/;

/** `PATCH /api/resources?action=`: copy, or move (filebrowser calls a move `rename`). */
export const PatchActions = ['copy', 'rename'] as const;
export type PatchAction = (typeof PatchActions)[number];

/** The `type:` words of a search (`music` is `audio`; `pdf` is the extension). */
export const SearchTypes = ['image', 'audio', 'music', 'video', 'pdf'] as const;
export type SearchType = (typeof SearchTypes)[number];

/** Largest text file whose content is returned inline and typed as text (larger ones are `blob`). */
export const TextInlineLimit = 10 * 1024 * 1024;
