#!/usr/bin/env node
// Checks the web app's translations: every supported locale has a file; every locale has exactly
// the English keys (none missing, none extra, none empty), the same {{placeholders}}, and a real
// translation rather than the English text; and every key is used somewhere in web/src.
// Run with `npm run i18n:check`; the web test suite runs the same check.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ReferenceLocale = 'en';

/** Flattens nested translation objects into dotted keys. */
export function flattenKeys(tree, prefix = '', into = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) flattenKeys(value, dotted, into);
    else into.set(dotted, value);
  }
  return into;
}

function placeholders(text) {
  return [...String(text).matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((match) => match[1]).sort();
}

// Plural forms (key_one, key_other, …) belong to the base key: locales need different sets.
const pluralSuffix = /_(zero|one|two|few|many|other)$/;
const baseKey = (key) => key.replace(pluralSuffix, '');

/** Keys the source code uses: t('key'), t("key", …), i18nKey="key", i18nKey={'key'} and tKey('key'). */
export function findUsedKeys(sourceRoot) {
  const used = new Set();
  const patterns = [
    /\bt\(\s*(['"`])([\w.-]+)\1/g,
    /\bi18nKey\s*=\s*\{?\s*(['"`])([\w.-]+)\1/g,
    /\btKey\(\s*(['"`])([\w.-]+)\1/g,
  ];
  const visit = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'locales' && entry.name !== 'node_modules') visit(full);
      } else if (/\.(tsx?|jsx?|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const pattern of patterns) for (const match of text.matchAll(pattern)) used.add(match[2]);
      }
    }
  };
  visit(sourceRoot);
  return used;
}

/** The locale codes the app offers, read from its language list. */
export function supportedLocales(webRoot) {
  const source = fs.readFileSync(path.join(webRoot, 'src/i18n/languages.ts'), 'utf8');
  return [...source.matchAll(/code:\s*'([\w-]+)'/g)].map((match) => match[1]);
}

/**
 * Returns a list of problems (empty when all is well).
 * `identicalAllowed` (src/i18n/identical-allowed.json) lists, per locale, keys whose correct
 * translation is spelt exactly as in English (a brand name, "Version" in German …).
 */
export function checkTranslations(webRoot = path.join(repositoryRoot, 'web')) {
  const problems = [];
  const localeDir = path.join(webRoot, 'src/i18n/locales');
  const allowedPath = path.join(webRoot, 'src/i18n/identical-allowed.json');
  const identicalAllowed = fs.existsSync(allowedPath) ? JSON.parse(fs.readFileSync(allowedPath, 'utf8')) : {};
  const read = (code) => flattenKeys(JSON.parse(fs.readFileSync(path.join(localeDir, `${code}.json`), 'utf8')));

  const locales = supportedLocales(webRoot);
  const files = fs.readdirSync(localeDir).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
  for (const code of locales) if (!files.includes(code)) problems.push(`${code}: no translation file`);
  for (const code of files) if (!locales.includes(code)) problems.push(`${code}.json: not a supported locale`);

  const reference = read(ReferenceLocale);
  const referenceBases = new Set([...reference.keys()].map(baseKey));
  for (const code of files) {
    if (code === ReferenceLocale) continue;
    let keys;
    try {
      keys = read(code);
    } catch (error) {
      problems.push(`${code}: invalid JSON (${error.message})`);
      continue;
    }
    const bases = new Set([...keys.keys()].map(baseKey));
    for (const key of referenceBases) if (!bases.has(key)) problems.push(`${code}: missing key ${key}`);
    for (const key of bases) if (!referenceBases.has(key)) problems.push(`${code}: extra key ${key}`);
    const allowed = new Set(identicalAllowed[code] ?? []);
    for (const [key, value] of keys) {
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`${code}: empty translation for ${key}`);
        continue;
      }
      const english = reference.get(key) ?? reference.get(`${baseKey(key)}_other`) ?? reference.get(baseKey(key));
      if (english === undefined) continue;
      if (placeholders(english).join() !== placeholders(value).join()) {
        problems.push(`${code}: ${key} has placeholders {${placeholders(value)}} instead of {${placeholders(english)}}`);
      }
      if (value === english && !allowed.has(key)) problems.push(`${code}: ${key} is not translated ("${value}")`);
    }
  }

  const used = findUsedKeys(path.join(webRoot, 'src'));
  for (const key of referenceBases) if (!used.has(key)) problems.push(`en: key ${key} is not used in web/src`);
  for (const key of used) if (!referenceBases.has(key)) problems.push(`web/src uses ${key}, which en.json lacks`);
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const problems = checkTranslations();
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(`i18n check: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log('i18n check: all translations complete and used');
}
