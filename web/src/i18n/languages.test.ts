import { describe, expect, it } from 'vitest';
import { chooseLanguage, Languages, matchLanguage } from './languages';

describe('languages', () => {
  it('offers the 28 locales of the specification, right-to-left for Arabic and Hebrew only', () => {
    expect(Languages.map((language) => language.code).sort()).toEqual(
      ['he', 'hu', 'ar', 'ca', 'cs', 'de', 'el', 'en', 'es', 'fr', 'is', 'it', 'ja', 'ko', 'nl-be', 'no', 'pl', 'pt-br', 'pt', 'ro', 'ru', 'sk', 'sv-se', 'tr', 'uk', 'vi', 'zh-cn', 'zh-tw'].sort(),
    );
    expect(Languages.filter((language) => language.rtl).map((language) => language.code).sort()).toEqual(['ar', 'he']);
  });

  it('maps stored locales and browser tags to supported codes', () => {
    expect(matchLanguage('pt_BR')).toBe('pt-br');
    expect(matchLanguage('pt-PT')).toBe('pt');
    expect(matchLanguage('zh-Hant-HK')).toBe('zh-tw');
    expect(matchLanguage('zh')).toBe('zh-cn');
    expect(matchLanguage('nb-NO')).toBe('no');
    expect(matchLanguage('nl-NL')).toBe('nl-be');
    expect(matchLanguage('sv')).toBe('sv-se');
    expect(matchLanguage('de-AT')).toBe('de');
    expect(matchLanguage('xx')).toBeUndefined();
    expect(matchLanguage('')).toBeUndefined();
  });

  it("prefers the user's locale, then the browser's languages, then English", () => {
    expect(chooseLanguage('fr', ['de-DE'])).toBe('fr');
    expect(chooseLanguage('', ['xx', 'de-DE'])).toBe('de');
    expect(chooseLanguage(undefined, ['xx'])).toBe('en');
  });
});
