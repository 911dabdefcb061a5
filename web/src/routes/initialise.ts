import { login, renew } from '../api/auth';
import { isApiError } from '../api/api-error';
import { setLanguage } from '../i18n/i18n';
import { readStoredToken, clearStoredToken } from '../lib/token-storage';
import { appSettings, usesLoginPage } from '../stores/app-settings-store';
import { setSessionToken, useSession } from '../stores/session-store';

declare global {
  interface Window {
    grecaptcha?: {
      render: (element: HTMLElement, options: { sitekey: string; theme?: string }) => number;
      getResponse: (widgetId?: number) => string;
      reset: (widgetId?: number) => void;
    };
  }
}

const CaptchaPollInterval = 100;
// A script that never arrives (blocked, offline) must not hold the app forever.
const CaptchaWaitLimit = 15_000;

/** Resolves once the captcha script has defined `grecaptcha`, polling every 100 ms. */
function waitForCaptcha(limit = CaptchaWaitLimit): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = () => {
      if (window.grecaptcha?.render) resolve(true);
      else if (Date.now() - started >= limit) resolve(false);
      else setTimeout(poll, CaptchaPollInterval);
    };
    poll();
  });
}

async function authenticate(): Promise<void> {
  const settings = appSettings();
  if (usesLoginPage(settings)) {
    const stored = readStoredToken();
    if (!stored) return;
    try {
      setSessionToken(await renew(stored));
    } catch (error) {
      // Only a refusal ends the stored session; a request cut short (a reload during start-up,
      // a server briefly away) must not log the user out of every later page load.
      if (isApiError(error) && error.code === 'unauthorized') clearStoredToken(settings.BaseURL);
      console.warn('the stored session could not be renewed', error);
    }
  } else {
    // Without a login page the server vouches for the user (no authentication, or the proxy's
    // header): logging in with empty credentials yields the session.
    setSessionToken(await login('', '', ''));
  }
}

async function runInitialSteps(): Promise<void> {
  try {
    await authenticate();
  } catch (error) {
    // Spec: errors of the first-navigation setup are only logged.
    console.error('start-up authentication failed', error);
  }
  await setLanguage(useSession.getState().user?.locale).catch((error: unknown) => console.error('loading the translation failed', error));
  if (appSettings().ReCaptcha) await waitForCaptcha();
}

let initialisation: Promise<void> | undefined;

/** The first-navigation step: runs once, every later call gets the same promise. */
export function initialise(): Promise<void> {
  initialisation ??= runInitialSteps();
  return initialisation;
}
