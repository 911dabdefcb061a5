/**
 * App-wide requests that one screen makes and another part of the app fulfils, as DOM events on
 * `window` so neither side has to import the other. Nothing happens while nobody listens.
 */
export const OpenSearchEvent = 'burrow:open-search';

/** Asks for the search overlay (Ctrl/Cmd+Shift+F on the files screen). */
export function requestSearch(): void {
  window.dispatchEvent(new CustomEvent(OpenSearchEvent));
}
