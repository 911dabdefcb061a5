import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { chooseLanguage, findLanguage } from './languages';
import type en from './locales/en.json';

type Translation = typeof en;

// Each locale becomes its own chunk; only the active one is fetched.
const loaders = import.meta.glob<{ default: Translation }>('./locales/*.json');

async function loadTranslation(code: string): Promise<Translation> {
  const loader = loaders[`./locales/${code}.json`];
  if (!loader) throw new Error(`no translation for ${code}`);
  return (await loader()).default;
}

let initialised = false;
// Calls run one after another, so the last requested language is the one that stays.
let queue: Promise<unknown> = Promise.resolve();

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
}

function applyDocumentLanguage(code: string) {
  const language = findLanguage(code);
  document.documentElement.lang = language.tag;
  document.documentElement.dir = language.rtl ? 'rtl' : 'ltr';
}

async function switchTo(code: string): Promise<void> {
  if (!initialised) {
    await i18next.use(initReactI18next).init({
      lng: code,
      resources: { [code]: { translation: await loadTranslation(code) } },
      fallbackLng: false,
      // Locale codes stay as stored ("zh-tw", "pt-br"): one resource bundle per code, nothing else looked up.
      lowerCaseLng: true,
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
    });
    initialised = true;
  } else {
    if (!i18next.hasResourceBundle(code, 'translation')) {
      i18next.addResourceBundle(code, 'translation', await loadTranslation(code));
    }
    if (i18next.language !== code) await i18next.changeLanguage(code);
  }
  applyDocumentLanguage(code);
}

/** Loads the translation for the user's locale (or the browser's language) and switches to it. */
export function setLanguage(userLocale?: string): Promise<string> {
  const code = chooseLanguage(userLocale, browserLanguages());
  const step = queue.then(() => switchTo(code));
  queue = step.catch(() => undefined);
  return step.then(() => code);
}

/** The BCP 47 tag of the active language, for Intl formatters. */
export function currentLocaleTag(): string {
  return findLanguage(i18next.language || 'en').tag;
}

export { i18next };
