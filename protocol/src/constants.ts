/**
 * Plain constants with no schema runtime. The web app imports values only from files like this
 * one (and errors.ts, paths.ts, startup.ts), so the TypeBox runtime never reaches the browser bundle.
 */

/** Pattern the login page uses to read the minimum password length from a 400 text. */
export const MinimumLengthPattern = /minimum length is (\d+)/;

/** Largest text file whose content is returned inline and typed as text (larger ones are `blob`). */
export const TextInlineLimit = 10 * 1024 * 1024;
