import { useEffect, useRef } from 'react';

type RecaptchaWidgetProps = {
  siteKey: string;
  theme: 'light' | 'dark';
  /** Receives a reader of the current response ("" until solved) once the widget exists. */
  onReady: (controls: { getResponse: () => string; reset: () => void }) => void;
};

/** Renders the reCAPTCHA checkbox explicitly (the page loads the script with render=explicit). */
export function RecaptchaWidget({ siteKey, theme, onReady }: RecaptchaWidgetProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const renderedRef = useRef(false);

  useEffect(() => {
    const container = containerRef.current;
    const api = window.grecaptcha;
    if (!container || !api || renderedRef.current) return;
    renderedRef.current = true;
    const widgetId = api.render(container, { sitekey: siteKey, theme });
    onReady({ getResponse: () => api.getResponse(widgetId), reset: () => api.reset(widgetId) });
  }, [siteKey, theme, onReady]);

  return <div ref={containerRef} className="login__captcha" />;
}
