import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { act, renderHook } from '@testing-library/react';

// The real i18next, through Node's own resolution (the app's imports of it get the translator).
const { createInstance } = createRequire(import.meta.url)('i18next') as typeof import('i18next');
const localesFolder = path.join(import.meta.dirname, 'locales');
const codes = fs.readdirSync(localesFolder).map((name) => name.replace(/\.json$/, ''));

type Tree = { [name: string]: unknown };
/** `t` without the key types of the app's own texts: these tests also look up made-up keys. */
type LooseT = (key: string, options?: object) => string;
const t = (key: string, options?: object) => (i18next.t as unknown as LooseT)(key, options);

/** Every text key of a translation, plural forms folded into their base key (marked `plural`). */
function keys(tree: Tree, prefix = ''): { key: string; plural: boolean }[] {
  return Object.entries(tree).flatMap(([name, value]) => {
    if (value !== null && typeof value === 'object') return keys(value as Tree, `${prefix}${name}.`);
    const base = name.replace(/_(zero|one|two|few|many|other)$/, '');
    return [{ key: `${prefix}${base}`, plural: base !== name }];
  });
}

describe('translator', () => {
  it('the app resolves i18next and react-i18next to its own translator', async () => {
    expect(i18next.constructor.name).toBe('Translator');
    expect(initReactI18next.type).toBe('3rdParty');
  });

  it('gives the same text as i18next for every key of every locale, with counts and variables', { timeout: 60_000 }, async () => {
    const variables = { name: 'report.pdf', username: 'alice', total: 7, number: 3, field: 'Scope', when: 'today', max: 9, limit: 5 };
    for (const code of codes) {
      const translation = JSON.parse(fs.readFileSync(path.join(localesFolder, `${code}.json`), 'utf8')) as Tree;
      const reference = createInstance();
      await reference.init({
        lng: code,
        resources: { [code]: { translation } },
        fallbackLng: false,
        lowerCaseLng: true,
        load: 'currentOnly',
        interpolation: { escapeValue: false },
        returnNull: false,
        showSupportNotice: false,
      });
      await i18next.init({ lng: code, resources: { [code]: { translation } } });
      const texts = new Map(keys(translation).map(({ key, plural }) => [key, plural]));
      texts.set('missing.key', true);
      for (const [key, plural] of texts) {
        const counts = plural ? [0, 1, 2, 3, 5, 11, 22, 101] : [1];
        for (const options of [undefined, variables, ...counts.map((count) => ({ ...variables, count }))]) {
          expect(t(key, options), `${code} ${key} ${JSON.stringify(options)}`).toBe((reference.t as unknown as LooseT)(key, options));
        }
      }
    }
  });

  it('leaves a variable not given as written, and replaces resources on init as i18next does', async () => {
    await i18next.init({ lng: 'en', resources: { en: { translation: { a: { b: 'Hi {{who}}, {{ who }}! {{other}}' } } } } });
    expect(t('a.b', { who: 'Ann' })).toBe('Hi Ann, Ann! {{other}}');
    i18next.addResourceBundle('en', 'translation', { a: { c: 'more' } }, true, true);
    expect(i18next.getResourceBundle('en', 'translation')).toEqual({ a: { b: 'Hi {{who}}, {{ who }}! {{other}}', c: 'more' } });
    await i18next.init({ lng: 'de', resources: { de: { translation: { x: 'y' } } } });
    expect(i18next.hasResourceBundle('en', 'translation')).toBe(false);
    expect(t('a.b')).toBe('a.b');
  });

  it('useTranslation renders again with a new t when the language changes', async () => {
    await i18next.init({ lng: 'en', resources: { en: { translation: { hello: 'Hello' } }, de: { translation: { hello: 'Hallo' } } } });
    const { result } = renderHook(() => useTranslation());
    const first = result.current.t;
    expect(result.current.t('hello' as never)).toBe('Hello');
    await act(() => i18next.changeLanguage('de'));
    expect(result.current.t('hello' as never)).toBe('Hallo');
    expect(result.current.i18n.language).toBe('de');
    expect(result.current.t).not.toBe(first);
  });
});
