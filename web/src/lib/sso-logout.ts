/** Where the provider's end-session URL waits between the logout and the login page that offers it. */
const EndSessionKey = 'burrow-sso-end-session';

export function keepEndSessionUrl(url: string): void {
  try {
    if (url) sessionStorage.setItem(EndSessionKey, url);
  } catch {
    // Without storage the login page simply offers no provider logout.
  }
}

/** The end-session URL kept by the last logout (once), only when it is an http(s) URL. */
export function takeEndSessionUrl(): string {
  try {
    const url = sessionStorage.getItem(EndSessionKey) ?? '';
    sessionStorage.removeItem(EndSessionKey);
    return /^https?:\/\//i.test(url) ? url : '';
  } catch {
    return '';
  }
}
