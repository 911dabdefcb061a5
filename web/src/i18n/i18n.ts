import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { chooseLanguage, findLanguage } from './languages';
import type en from './locales/en.json';
import translationAreas from './translation-areas.json';

type Translation = typeof en;
type TranslationPart = Partial<Translation>;

/**
 * Sections of the translation that only lazily loaded screens and dialogs use, by the area that
 * asks for them. They stay out of the start-up translation and are fetched, in the active
 * language, together with those screens (`withTranslations`). The build reads the same table.
 */
export type TranslationArea = keyof typeof translationAreas;
export const TranslationAreas = translationAreas as Record<TranslationArea, readonly (keyof Translation)[]>;

/** A locale as the build splits it: the start-up sections, and a loader per area. */
export type LocaleModule = {
  default: TranslationPart;
  areas: Record<TranslationArea, () => Promise<{ default: TranslationPart }>>;
};

// Each locale becomes its own chunk, and each of its areas one more; only the active one is fetched.
export const locales = import.meta.glob<LocaleModule>('./locales/*.json', { query: '?split' });

function loadLocale(code: string): Promise<LocaleModule> {
  const loader = locales[`./locales/${code}.json`];
  if (!loader) return Promise.reject(new Error(`no translation for ${code}`));
  return loader();
}

async function loadPart(code: string, part: 'core' | TranslationArea): Promise<TranslationPart> {
  const locale = await loadLocale(code);
  return part === 'core' ? locale.default : (await locale.areas[part]()).default;
}

let initialised = false;
// Calls run one after another, so the last requested language is the one that stays.
let queue: Promise<unknown> = Promise.resolve();
/** Areas asked for so far: every language switched to gets them too. */
const requestedAreas = new Set<TranslationArea>();
/** Which parts (`core` and areas) each language already has. */
const loadedParts = new Map<string, Set<string>>();

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
}

function applyDocumentLanguage(code: string) {
  const language = findLanguage(code);
  document.documentElement.lang = language.tag;
  document.documentElement.dir = language.rtl ? 'rtl' : 'ltr';
}

/** Fetches the parts `code` still lacks (its core, the areas asked for so far) and adds them. */
async function completeLanguage(code: string): Promise<void> {
  const loaded = loadedParts.get(code) ?? new Set<string>();
  const missing = [...(loaded.has('core') ? [] : ['core']), ...[...requestedAreas].filter((area) => !loaded.has(area))];
  if (missing.length === 0) return;
  const parts = await Promise.all(missing.map((name) => loadPart(code, name as 'core' | TranslationArea)));
  const translation: TranslationPart = Object.assign({}, ...parts);
  if (!initialised) {
    await i18next.use(initReactI18next).init({
      lng: code,
      resources: { [code]: { translation } },
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
    i18next.addResourceBundle(code, 'translation', translation, true, true);
  }
  for (const name of missing) loaded.add(name);
  loadedParts.set(code, loaded);
}

async function switchTo(code: string): Promise<void> {
  await completeLanguage(code);
  if (i18next.language !== code) await i18next.changeLanguage(code);
  applyDocumentLanguage(code);
}

function enqueue(step: () => Promise<void>): Promise<void> {
  const next = queue.then(step);
  queue = next.catch(() => undefined);
  return next;
}

/** Loads the translation for the user's locale (or the browser's language) and switches to it. */
export function setLanguage(userLocale?: string): Promise<string> {
  const code = chooseLanguage(userLocale, browserLanguages());
  return enqueue(() => switchTo(code)).then(() => code);
}

/** Adds the sections of `areas` to the active language (and to any it switches to later). */
export function loadTranslations(...areas: TranslationArea[]): Promise<void> {
  for (const area of areas) requestedAreas.add(area);
  // Before the first language is set up there is nothing to add to: setting it up takes them.
  return enqueue(() => (initialised ? completeLanguage(i18next.language) : Promise.resolve()));
}

/** A lazily loaded module, once it and the translation sections it shows are both there. */
export async function withTranslations<T>(module: Promise<T>, ...areas: TranslationArea[]): Promise<T> {
  const [loaded] = await Promise.all([module, loadTranslations(...areas)]);
  return loaded;
}

/** The BCP 47 tag of the active language, for Intl formatters. */
export function currentLocaleTag(): string {
  return findLanguage(i18next.language || 'en').tag;
}

export { i18next };
