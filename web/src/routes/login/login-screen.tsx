import { MessageCircle } from 'lucide-react';
import { lazy, Suspense, useCallback, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../lib/router';
import { showError } from '../../lib/notify';
import { displayName } from '../../lib/startup';
import { useAppSettings } from '../../stores/app-settings-store';
import { usePageTitle } from '../use-page-title';
import { RecaptchaWidget } from './recaptcha-widget';
import { submitLogin, type LoginFailure } from './submit-login';
import type { TwoFactorChallenge } from './two-factor-login';
import { SsoButton, SsoEndSession, useSsoLanding } from './sso-sign-in';
import './login-screen.css';

/** The code step comes after a right password only for users with two-factor: loaded then. */
const TwoFactorLogin = lazy(() => import('./two-factor-login').then((module) => ({ default: module.TwoFactorLogin })));

type CaptchaControls = { getResponse: () => string; reset: () => void };

export function LoginScreen() {
  const { t } = useTranslation();
  const settings = useAppSettings((state) => state.settings);
  const [params] = useSearchParams();
  const [isSignup, setSignup] = useState(settings.Signup && params.get('mode') === 'signup');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [error, setError] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [twoFactor, setTwoFactor] = useState<TwoFactorChallenge>();
  // Single sign-on: with password sign-in kept for the break-glass admin, the form waits behind a link.
  const sso = settings.OIDC?.Enabled ? settings.OIDC : undefined;
  const ssoLanding = useSsoLanding();
  const [isPasswordShown, setPasswordShown] = useState(!sso || sso.PasswordLogin);
  const captchaRef = useRef<CaptchaControls | null>(null);
  const handleCaptchaReady = useCallback((controls: CaptchaControls) => {
    captchaRef.current = controls;
  }, []);

  usePageTitle(isSignup ? t('titles.signup') : t('titles.login'));

  const name = displayName(settings);
  const logoutReason = params.get('logout-reason');
  const hasCaptcha = settings.ReCaptcha && Boolean(window.grecaptcha);
  const chatURL = settings.DisableExternal ? '' : settings.ExternalChatURL;
  const isDark = document.documentElement.classList.contains('dark');

  const describeFailure = (failure: LoginFailure): string => {
    switch (failure.kind) {
      case 'wrongCredentials':
        return sso && !sso.PasswordLogin ? t('login.sso.passwordOff') : t('login.wrongCredentials');
      case 'passwordsDontMatch':
        return t('login.passwordsDontMatch');
      case 'usernameTaken':
        return t('login.usernameTaken');
      case 'passwordTooShort':
        return t('login.passwordTooShort', { minimum: failure.minimum });
      case 'rejected':
        return failure.message;
      case 'unexpected':
      case 'twoFactor':
        return '';
    }
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    setBusy(true);
    setError('');
    const failure = await submitLogin({
      username,
      password,
      passwordConfirm,
      isSignup,
      captcha: settings.ReCaptcha ? (captchaRef.current?.getResponse() ?? '') : undefined,
    });
    setBusy(false);
    // Success: the session is set and the guard moves on to the redirect target.
    if (!failure) return;
    captchaRef.current?.reset();
    if (failure.kind === 'twoFactor') setTwoFactor({ state: failure.state, challenge: failure.challenge });
    else if (failure.kind === 'unexpected') void showError(failure.error);
    else setError(describeFailure(failure));
  };

  const toggleMode = () => {
    setSignup((value) => !value);
    setError('');
  };

  if (twoFactor) {
    const backToPassword = (message?: string) => {
      setTwoFactor(undefined);
      setPassword('');
      setError(message ?? '');
    };
    return (
      <main className="login">
        <div className="login__panel">
          <div className="login__card card">
            <img className="login__logo" src={`${settings.StaticURL}/img/logo.svg`} alt="" width={64} height={64} />
            <h1 className="login__title">{name}</h1>
            <Suspense fallback={<p className="login__loading" role="status" aria-busy="true" />}>
              <TwoFactorLogin {...twoFactor} onCancel={backToPassword} />
            </Suspense>
          </div>
        </div>
      </main>
    );
  }

  return (
    <main className="login">
      <div className="login__panel">
        <form className="login__card card" onSubmit={(event) => void handleSubmit(event)} noValidate aria-describedby={error ? 'login-error' : undefined}>
          <img className="login__logo" src={`${settings.StaticURL}/img/logo.svg`} alt="" width={64} height={64} />
          <h1 className="login__title">{name}</h1>
          <p className="login__subtitle">{isSignup ? t('login.signupSubtitle') : t('login.subtitle')}</p>

          {sso && <SsoEndSession />}
          {ssoLanding.error && !error && (
            <p className="login__error" role="alert">
              {ssoLanding.error}
            </p>
          )}
          {ssoLanding.isCollecting && (
            <p className="login__notice" role="status">
              {t('login.sso.signingIn')}
            </p>
          )}
          {logoutReason && !error && (
            <p className="login__notice" role="status">
              {logoutReason === 'inactivity' ? t('login.logoutInactivity') : t('login.loggedOut')}
            </p>
          )}
          {error && (
            <p id="login-error" className="login__error" role="alert">
              {error}
            </p>
          )}

          {sso && !isSignup && (
            <>
              <SsoButton label={sso.ButtonLabel} />
              {isPasswordShown ? (
                <p className="login__divider">{t('login.sso.or')}</p>
              ) : (
                <button type="button" className="login__link login__password-link" onClick={() => setPasswordShown(true)}>
                  {t('login.sso.usePassword')}
                </button>
              )}
            </>
          )}
          {(isPasswordShown || isSignup) && (
            <>
              <label className="field">
                <span className="field__label">{t('login.username')}</span>
                <input
                  className="input"
                  name="username"
                  autoComplete="username"
                  autoCapitalize="off"
                  spellCheck={false}
                  autoFocus
                  value={username}
                  onChange={(event) => setUsername(event.target.value)}
                />
              </label>
              <label className="field">
                <span className="field__label">{t('login.password')}</span>
                <input
                  className="input"
                  type="password"
                  name="password"
                  autoComplete={isSignup ? 'new-password' : 'current-password'}
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </label>
              {isSignup && (
                <label className="field">
                  <span className="field__label">{t('login.passwordConfirm')}</span>
                  <input
                    className="input"
                    type="password"
                    name="passwordConfirm"
                    autoComplete="new-password"
                    value={passwordConfirm}
                    aria-invalid={passwordConfirm !== '' && passwordConfirm !== password}
                    onChange={(event) => setPasswordConfirm(event.target.value)}
                  />
                </label>
              )}

              {hasCaptcha && <RecaptchaWidget siteKey={settings.ReCaptchaKey} theme={isDark ? 'dark' : 'light'} onReady={handleCaptchaReady} />}

              <button type="submit" className="button button--primary button--block" disabled={isBusy}>
                {isSignup ? t('login.signupSubmit') : t('login.submit')}
              </button>
            </>
          )}

          {settings.Signup && (
            <p className="login__toggle">
              {isSignup ? t('login.haveAccount') : t('login.noAccount')}{' '}
              <button type="button" className="login__link" onClick={toggleMode}>
                {isSignup ? t('login.switchToLogin') : t('login.switchToSignup')}
              </button>
            </p>
          )}
        </form>

        {chatURL && (
          <a className="login__chat card" href={chatURL} target="_blank" rel="noopener noreferrer">
            <span className="login__chat-icon" aria-hidden="true">
              <MessageCircle size={22} />
            </span>
            <span className="login__chat-text">
              <strong>{t('login.chatTitle')}</strong>
              <span>{t('login.chatOffer')}</span>
            </span>
          </a>
        )}
      </div>
    </main>
  );
}
