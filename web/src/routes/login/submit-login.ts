import { MinimumLengthPattern } from '@burrow/protocol/constants';
import { login, signup } from '../../api/auth';
import { isApiError } from '../../api/api-error';
import { setSessionToken } from '../../stores/session-store';
import { TwoFactorHeaders, type TwoFactorLoginState } from '@burrow/protocol/two-factor-constants';

export type LoginInput = {
  username: string;
  password: string;
  passwordConfirm: string;
  isSignup: boolean;
  /** The captcha response; undefined when no captcha is in use. */
  captcha?: string;
};

/** What the form shows after a failed attempt; `unexpected` goes to the general error toast. */
export type LoginFailure =
  | { kind: 'wrongCredentials' }
  | { kind: 'passwordsDontMatch' }
  | { kind: 'usernameTaken' }
  | { kind: 'passwordTooShort'; minimum: number }
  | { kind: 'rejected'; message: string }
  /** A right password for an account with two-factor: a code (or an enrolment) completes it. */
  | { kind: 'twoFactor'; state: TwoFactorLoginState; challenge: string }
  | { kind: 'unexpected'; error: unknown };

/**
 * Signs up (in signup mode), then logs in and adopts the token. Returns undefined on success or
 * the reason for failure, following spec sections 5 and 8.
 */
export async function submitLogin(input: LoginInput): Promise<LoginFailure | undefined> {
  if (input.captcha !== undefined && !input.captcha) return { kind: 'wrongCredentials' };
  if (input.isSignup && input.password !== input.passwordConfirm) return { kind: 'passwordsDontMatch' };
  try {
    if (input.isSignup) await signup(input.username, input.password);
    setSessionToken(await login(input.username, input.password, input.captcha ?? ''));
    return undefined;
  } catch (error) {
    if (!isApiError(error)) return { kind: 'unexpected', error };
    if (error.code === 'conflict') return { kind: 'usernameTaken' };
    if (error.code === 'unauthorized') {
      const state = error.headers?.get(TwoFactorHeaders.state);
      const challenge = error.headers?.get(TwoFactorHeaders.challenge);
      if ((state === 'required' || state === 'enrol') && challenge) return { kind: 'twoFactor', state, challenge };
    }
    if (error.code === 'forbidden') return { kind: 'wrongCredentials' };
    if (error.code === 'bad_request') {
      const match = MinimumLengthPattern.exec(error.message);
      return match ? { kind: 'passwordTooShort', minimum: Number(match[1]) } : { kind: 'rejected', message: error.message };
    }
    return { kind: 'unexpected', error };
  }
}
