import { useMemo, useSyncExternalStore } from 'react';
import i18next, { type Translator } from './translator';

/**
 * The part of react-i18next the app uses, over the translator in `translator.ts` (the build and
 * the tests resolve `react-i18next` here; see vite.config.ts). Components re-render when the
 * language changes, and `t` is then a new function, so effects that depend on it run again.
 */

/** The plugin `i18next.use()` takes; the hook below needs no set-up. */
export const initReactI18next = { type: '3rdParty' as const, init: (_instance: Translator) => undefined };

function subscribe(onChange: () => void): () => void {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
}

const currentLanguage = () => i18next.language;

export function useTranslation() {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  return useMemo(() => {
    const t: Translator['t'] = (key, options) => i18next.t(key, options);
    return Object.assign([t, i18next, true] as const, { t, i18n: i18next, ready: true });
    // A new language makes a new translator, so that components using it render again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [language]);
}
