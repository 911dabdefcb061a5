/** Two-factor constants without schemas, for the web app's start-up code (the login page). */

/** Two-factor (TOTP) routes. The login ones take a challenge instead of a session. */
export const TwoFactorPaths = {
  /** GET: the signed-in user's state. */
  status: '/api/two-factor',
  /** POST: a new secret to scan (replaces one not yet confirmed). */
  enrol: '/api/two-factor/enrol',
  /** POST {code}: confirms the secret; answers the recovery codes. */
  confirm: '/api/two-factor/confirm',
  /** POST {code}: turns two-factor off (a code or a recovery code). */
  disable: '/api/two-factor/disable',
  /** POST {code}: replaces the recovery codes. */
  recoveryCodes: '/api/two-factor/recovery-codes',
  /** POST {challenge, code}: completes a login; answers the JWT like /api/login. */
  login: '/api/login/two-factor',
  /** POST {challenge}: a secret for a user who must enrol before signing in. */
  loginEnrol: '/api/login/two-factor/enrol',
  /** POST {challenge, code}: confirms that secret and signs in. */
  loginConfirm: '/api/login/two-factor/confirm',
} as const;

/** `/api/users/{id}/two-factor`: admins read, require (PUT) and reset (DELETE) a user's 2FA. */
export const userTwoFactorPath = (id: number | string) => `/api/users/${id}/two-factor`;

/**
 * A right password is not enough for a user with two-factor: `POST /api/login` answers 401 with
 * `X-Burrow-Two-Factor: required` (enter a code) or `enrol` (set it up first), and a short-lived
 * challenge in `X-Burrow-Two-Factor-Challenge`. Clients that know nothing of it see a plain 401.
 */
export const TwoFactorHeaders = {
  state: 'x-burrow-two-factor',
  challenge: 'x-burrow-two-factor-challenge',
} as const;
export type TwoFactorLoginState = 'required' | 'enrol';

/** Seconds a login challenge stays valid. */
export const TwoFactorChallengeSeconds = 300;
export const RecoveryCodeCount = 10;

/** Global: `GET`/`PUT /api/two-factor/policy` (admins). */
export const TwoFactorPolicyPath = '/api/two-factor/policy';
