import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18next, loadTranslations, locales, setLanguage, TranslationAreas, withTranslations, type TranslationArea } from './i18n';
import en from './locales/en.json';

const sourceRoot = path.resolve(import.meta.dirname, '..');
const areas = Object.keys(TranslationAreas) as TranslationArea[];

function sections(code: string): string[] {
  return Object.keys(i18next.getResourceBundle(code, 'translation') ?? {}).sort();
}

describe('translation parts', () => {
  it('core and areas split every locale into disjoint parts that add up to the whole file', async () => {
    for (const code of ['en', 'de', 'ar']) {
      const whole = JSON.parse(fs.readFileSync(path.join(sourceRoot, 'i18n/locales', `${code}.json`), 'utf8')) as Record<string, unknown>;
      const locale = await locales[`./locales/${code}.json`]!();
      const core = locale.default;
      const parts = [core];
      for (const area of areas) {
        const part = (await locale.areas[area]()).default;
        expect(Object.keys(part).sort(), `${code} ${area}`).toEqual([...TranslationAreas[area]].sort());
        parts.push(part);
      }
      const names = parts.flatMap((part) => Object.keys(part));
      expect(new Set(names).size, code).toBe(names.length);
      expect(Object.assign({}, ...parts), code).toEqual(whole);
      for (const area of areas) for (const section of TranslationAreas[area]) expect(core, section).not.toHaveProperty(section);
    }
  });

  it('areas are added to the active language, and to every language switched to later', async () => {
    await setLanguage('en');
    expect(sections('en')).not.toContain('settings');
    expect(sections('en')).toContain('listing');
    expect(i18next.t('settings.profile.title' as never)).toBe('settings.profile.title');

    const module = await withTranslations(Promise.resolve('screen'), 'settings');
    expect(module).toBe('screen');
    expect(sections('en')).toContain('settings');
    expect(sections('en')).not.toContain('fileDialogs');

    await setLanguage('de');
    expect(i18next.language).toBe('de');
    expect(sections('de')).toEqual(expect.arrayContaining(['listing', 'settings']));
    expect(sections('de')).not.toContain('fileDialogs');

    await loadTranslations('fileDialogs');
    expect(sections('de')).toContain('fileDialogs');
    await setLanguage('en');
    expect(sections('en')).toEqual(expect.arrayContaining(['settings', 'fileDialogs']));
    expect(sections('en').sort()).not.toContain('editor');
  });
});

/** Source files (not tests) whose text satisfies `test`, relative to `src/`. */
function sourcesUsing(pattern: RegExp, folder = sourceRoot): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUsing(pattern, full);
    if (!/\.(ts|tsx)$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return [];
    return pattern.test(fs.readFileSync(full, 'utf8')) ? [path.relative(sourceRoot, full)] : [];
  });
}

describe('translation areas', () => {
  // Where each area's texts may be used: modules that are only ever shown through the lazy
  // loaders that ask for the area (routes, dialog registry, file view).
  const allowed: Record<TranslationArea, RegExp> = {
    login: /^routes\/login\//,
    settings: /^(routes\/settings\/|components\/forms\/|dialogs\/(delete-user|api-token)-dialog\.tsx$)/,
    share: /^(routes\/share\/|routes\/settings\/|components\/share\/|dialogs\/share-(delete-)?dialog\.tsx$)/,
    fileDialogs: /^dialogs\//,
    fileView: /^(routes\/files\/(editor|preview)\/|dialogs\/discard-changes-dialog\.tsx$)/,
    trash: /^routes\/trash\//,
  };

  it('each lazily loaded section is used only where it is loaded first', () => {
    const misplaced: string[] = [];
    for (const area of areas) {
      for (const section of TranslationAreas[area]) {
        for (const file of sourcesUsing(new RegExp(`['"\`]${section}\\.`))) {
          if (!allowed[area].test(file)) misplaced.push(`${file} uses ${section}.* (area ${area}), which it may show before the area is loaded`);
        }
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('every section of the English file is either at start-up or in exactly one area', () => {
    const lazy = areas.flatMap((area) => [...TranslationAreas[area]]);
    expect(new Set(lazy).size).toBe(lazy.length);
    for (const section of lazy) expect(Object.keys(en)).toContain(section);
  });
});
