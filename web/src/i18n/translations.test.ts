import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTranslations } from '../../../scripts/i18n-check.mjs';

const webRoot = path.resolve(import.meta.dirname, '../..');
const temporaryRoots: string[] = [];

afterEach(() => {
  for (const root of temporaryRoots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function makeWebRoot(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'i18n-check-'));
  temporaryRoots.push(root);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

describe('translations', () => {
  it('are complete, really translated and all used in every locale', () => {
    expect(checkTranslations(webRoot)).toEqual([]);
  });

  it('the check reports missing, extra, untranslated, mismatched and unused keys', () => {
    const root = makeWebRoot({
      'src/i18n/languages.ts': "export const Languages = [{ code: 'en' }, { code: 'fr' }, { code: 'de' }];",
      'src/i18n/locales/en.json': JSON.stringify({ a: { hello: 'Hello {{name}}', bye: 'Bye', unused: 'Spare' } }),
      'src/i18n/locales/fr.json': JSON.stringify({ a: { hello: 'Bonjour {{nom}}', unused: 'Spare', extra: 'En trop' } }),
      'src/app.tsx': "t('a.hello'); t('a.bye'); t('a.missing');",
    });
    const problems = checkTranslations(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        'de: no translation file',
        'fr: missing key a.bye',
        'fr: extra key a.extra',
        'fr: a.hello has placeholders {nom} instead of {name}',
        'fr: a.unused is not translated ("Spare")',
        'en: key a.unused is not used in web/src',
        'web/src uses a.missing, which en.json lacks',
      ]),
    );
  });
});
