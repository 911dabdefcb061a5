import { KeyRound } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../lib/router';
import { OidcErrors, type OidcError } from '@burrow/protocol/oidc-paths';
import { collectOidcSession, oidcLoginUrl } from '../../api/oidc';
import { setSessionToken } from '../../stores/session-store';
import { takeEndSessionUrl } from '../../lib/sso-logout';

/** The provider's button: the server starts the sign-in and sends the browser to the provider. */
export function SsoButton({ label }: { label: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <a className="button button--primary button--block login__sso" href={oidcLoginUrl(params.get('redirect'))}>
      <KeyRound size={18} aria-hidden="true" />
      <span>{label || t('login.sso.button')}</span>
    </a>
  );
}

/**
 * The login page after the provider sent the browser back: with `?sso=1` the session waiting in
 * the server's cookie is collected (the guard then moves on to the redirect target); with
 * `?sso-error=` the reason is shown.
 */
export function useSsoLanding(): { error: string; isCollecting: boolean } {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const isLanding = params.get('sso') === '1';
  const [isCollecting, setCollecting] = useState(isLanding);
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (!isLanding || started.current) return;
    started.current = true;
    collectOidcSession()
      .then((token) => setSessionToken(token))
      .catch(() => setFailed(true))
      .finally(() => setCollecting(false));
  }, [isLanding]);

  const code = params.get('sso-error');
  const known = code && (OidcErrors as readonly string[]).includes(code) ? (code as OidcError) : code ? 'failed' : undefined;
  const messages: Record<OidcError, string> = {
    state: t('login.sso.errorState'),
    denied: t('login.sso.errorDenied'),
    failed: t('login.sso.errorFailed'),
    'not-allowed': t('login.sso.errorNotAllowed'),
    'no-account': t('login.sso.errorNoAccount'),
    disabled: t('login.sso.errorDisabled'),
  };
  const error = failed ? t('login.sso.errorState') : known ? messages[known] : '';
  return { error, isCollecting };
}

/** After a logout, a link to end the session at the provider too, when it offers that. */
export function SsoEndSession() {
  const { t } = useTranslation();
  const [url] = useState(() => takeEndSessionUrl());
  if (!url) return null;
  return (
    <p className="login__notice">
      <a className="login__link" href={url}>
        {t('login.sso.endSession')}
      </a>
    </p>
  );
}
