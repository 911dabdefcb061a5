import type { CommandRunnerState } from './commands.js';
import type { TusSettings } from './settings.js';
import type { OidcStartup } from './oidc.js';

/**
 * Settings the server injects into index.html. The React app reads them from the
 * `<script type="application/json" id="burrow-startup">` element.
 */
export type StartupSettings = {
  Name: string;
  DisableExternal: boolean;
  DisableUsedPercentage: boolean;
  BaseURL: string;
  StaticURL: string;
  ReCaptcha: boolean;
  ReCaptchaKey: string;
  ReCaptchaHost: string;
  Signup: boolean;
  Version: string;
  NoAuth: boolean;
  AuthMethod: string;
  LoginPage: boolean;
  LogoutPage: string;
  Theme: string;
  Color: string;
  EnableThumbs: boolean;
  ResizePreview: boolean;
  EnableExec: boolean;
  /** Whether commands can run (`available`) or why not, such as a missing sandbox. */
  CommandRunner: CommandRunnerState;
  TusSettings: TusSettings;
  CSS: boolean;
  HideLoginButton: boolean;
  ExternalChatURL: string;
  /** The sidebar's help link (empty hides it). */
  HelpURL: string;
  /** The page the error toasts' report button opens (empty hides the button). */
  IssuesURL: string;
  /** Single sign-on through an OpenID Connect provider (absent on servers without it). */
  OIDC?: OidcStartup;
};

export const StartupElementId = 'burrow-startup';
