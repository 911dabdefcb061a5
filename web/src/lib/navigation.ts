type Navigator = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigator | undefined;

/** The router registers itself here so stores and the HTTP client can navigate without React. */
export function setNavigator(next: Navigator | undefined): void {
  navigator = next;
}

/** Navigates within the app; before the router exists, falls back to a full page load. */
export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (navigator) navigator(to, options);
  else window.location.assign(to);
}
