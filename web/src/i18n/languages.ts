/** A language the interface is translated into. `code` is the value stored in a user's `locale`. */
export type Language = {
  code: string;
  /** The language's own name, as shown in a language selector. */
  name: string;
  /** BCP 47 tag for `<html lang>` and the Intl formatters. */
  tag: string;
  rtl: boolean;
};

export const Languages: readonly Language[] = [
  { code: 'ar', name: 'العربية', tag: 'ar', rtl: true },
  { code: 'ca', name: 'Català', tag: 'ca', rtl: false },
  { code: 'cs', name: 'Čeština', tag: 'cs', rtl: false },
  { code: 'de', name: 'Deutsch', tag: 'de', rtl: false },
  { code: 'el', name: 'Ελληνικά', tag: 'el', rtl: false },
  { code: 'en', name: 'English', tag: 'en', rtl: false },
  { code: 'es', name: 'Español', tag: 'es', rtl: false },
  { code: 'fr', name: 'Français', tag: 'fr', rtl: false },
  { code: 'he', name: 'עברית', tag: 'he', rtl: true },
  { code: 'hu', name: 'Magyar', tag: 'hu', rtl: false },
  { code: 'is', name: 'Íslenska', tag: 'is', rtl: false },
  { code: 'it', name: 'Italiano', tag: 'it', rtl: false },
  { code: 'ja', name: '日本語', tag: 'ja', rtl: false },
  { code: 'ko', name: '한국어', tag: 'ko', rtl: false },
  { code: 'nl-be', name: 'Nederlands (België)', tag: 'nl-BE', rtl: false },
  { code: 'no', name: 'Norsk', tag: 'nb', rtl: false },
  { code: 'pl', name: 'Polski', tag: 'pl', rtl: false },
  { code: 'pt', name: 'Português', tag: 'pt-PT', rtl: false },
  { code: 'pt-br', name: 'Português (Brasil)', tag: 'pt-BR', rtl: false },
  { code: 'ro', name: 'Română', tag: 'ro', rtl: false },
  { code: 'ru', name: 'Русский', tag: 'ru', rtl: false },
  { code: 'sk', name: 'Slovenčina', tag: 'sk', rtl: false },
  { code: 'sv-se', name: 'Svenska', tag: 'sv-SE', rtl: false },
  { code: 'tr', name: 'Türkçe', tag: 'tr', rtl: false },
  { code: 'uk', name: 'Українська', tag: 'uk', rtl: false },
  { code: 'vi', name: 'Tiếng Việt', tag: 'vi', rtl: false },
  { code: 'zh-cn', name: '简体中文', tag: 'zh-CN', rtl: false },
  { code: 'zh-tw', name: '繁體中文', tag: 'zh-TW', rtl: false },
];

const DefaultLanguage = 'en';

const byCode = new Map(Languages.map((language) => [language.code, language]));

export function findLanguage(code: string): Language {
  return byCode.get(code) ?? byCode.get(DefaultLanguage)!;
}

/**
 * Maps a stored locale or a browser language tag ("pt_BR", "zh-Hant-HK", "nb-NO", "de-AT") to
 * one of the supported codes, or undefined when there is no sensible match.
 */
export function matchLanguage(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const tag = value.trim().toLowerCase().replace(/_/g, '-');
  if (!tag) return undefined;
  if (byCode.has(tag)) return tag;
  const [primary, ...rest] = tag.split('-');
  if (primary === 'zh') {
    return rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part)) ? 'zh-tw' : 'zh-cn';
  }
  if (primary === 'pt') return rest.includes('br') ? 'pt-br' : 'pt';
  if (primary === 'nl') return 'nl-be';
  if (primary === 'sv') return 'sv-se';
  if (primary === 'nb' || primary === 'nn') return 'no';
  if (primary === 'iw') return 'he';
  return primary && byCode.has(primary) ? primary : undefined;
}

/** The user's locale when it is supported, else the first supported browser language, else English. */
export function chooseLanguage(userLocale: string | undefined, browserLanguages: readonly string[]): string {
  const fromUser = matchLanguage(userLocale);
  if (fromUser) return fromUser;
  for (const candidate of browserLanguages) {
    const match = matchLanguage(candidate);
    if (match) return match;
  }
  return DefaultLanguage;
}
