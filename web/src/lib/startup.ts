import type { StartupSettings } from '@burrow/protocol';
import { StartupElementId } from '@burrow/protocol/startup';

/** Values used when the page was not rendered by the server (tests, a static preview). */
const defaultStartupSettings: StartupSettings = {
  Name: '',
  DisableExternal: false,
  DisableUsedPercentage: false,
  BaseURL: '',
  StaticURL: '/static',
  ReCaptcha: false,
  ReCaptchaKey: '',
  ReCaptchaHost: '',
  Signup: false,
  Version: '',
  NoAuth: false,
  AuthMethod: 'json',
  LoginPage: true,
  LogoutPage: '/login',
  Theme: '',
  Color: '',
  EnableThumbs: true,
  ResizePreview: true,
  EnableExec: false,
  CommandRunner: 'off',
  TusSettings: { chunkSize: 10 * 1024 * 1024, retryCount: 5 },
  CSS: false,
  HideLoginButton: true,
  ExternalChatURL: '',
  HelpURL: '',
  IssuesURL: '',
};

/** Reads the settings the server injected as JSON into the page; never throws. */
export function readStartupSettings(doc: Document = document): StartupSettings {
  const element = doc.getElementById(StartupElementId);
  if (!element?.textContent) return { ...defaultStartupSettings };
  try {
    const parsed = JSON.parse(element.textContent) as Partial<StartupSettings>;
    return { ...defaultStartupSettings, ...parsed };
  } catch {
    return { ...defaultStartupSettings };
  }
}

const DefaultDisplayName = 'Burrow';

export function displayName(settings: Pick<StartupSettings, 'Name'>): string {
  return settings.Name.trim() || DefaultDisplayName;
}
