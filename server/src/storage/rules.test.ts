import { describe, expect, it } from 'vitest';
import type { Rule } from '@burrow/protocol';
import { AppError } from '../errors.js';
import { createRuleChecker, sanitiseRules, validateRules } from './rules.js';

const deny = (path: string): Rule => ({ regex: false, allow: false, path, regexp: { raw: '' } });
const allow = (path: string): Rule => ({ regex: false, allow: true, path, regexp: { raw: '' } });
const denyRegex = (raw: string): Rule => ({ regex: true, allow: false, path: '', regexp: { raw } });
const allowRegex = (raw: string): Rule => ({ regex: true, allow: true, path: '', regexp: { raw } });

function allowed(rules: Rule[], path: string, options: { userRules?: Rule[]; caseInsensitive?: boolean } = {}) {
  return createRuleChecker(rules, options.userRules ?? [], { caseInsensitive: options.caseInsensitive }).isAllowed(path);
}

describe('rule evaluation', () => {
  it('allows everything when there are no rules', () => {
    const checker = createRuleChecker([], []);
    expect(checker.hasRules).toBe(false);
    expect(checker.isAllowed('/')).toBe(true);
    expect(checker.isAllowed('/anything/at/all')).toBe(true);
  });

  it('lets the last matching rule win', () => {
    const rules = [deny('/docs'), allow('/docs/public'), deny('/docs/public/drafts')];
    expect(allowed(rules, '/docs')).toBe(false);
    expect(allowed(rules, '/docs/private.txt')).toBe(false);
    expect(allowed(rules, '/docs/public')).toBe(true);
    expect(allowed(rules, '/docs/public/a.txt')).toBe(true);
    expect(allowed(rules, '/docs/public/drafts/b.txt')).toBe(false);
    expect(allowed(rules, '/other')).toBe(true);
    // Order matters: a broad deny after a narrow allow wins again.
    expect(allowed([allow('/docs/public'), deny('/docs')], '/docs/public/a.txt')).toBe(false);
  });

  it('evaluates global rules first, so user rules override them', () => {
    expect(allowed([deny('/shared')], '/shared/x', { userRules: [allow('/shared')] })).toBe(true);
    expect(allowed([allow('/shared')], '/shared/x', { userRules: [deny('/shared')] })).toBe(false);
    expect(allowed([deny('/shared')], '/shared/x', { userRules: [allow('/elsewhere')] })).toBe(false);
    expect(createRuleChecker([], [deny('/x')]).hasRules).toBe(true);
  });

  it('matches path rules on segment boundaries only', () => {
    const rules = [deny('/a')];
    expect(allowed(rules, '/a')).toBe(false);
    expect(allowed(rules, '/a/b')).toBe(false);
    expect(allowed(rules, '/ab')).toBe(true);
    expect(allowed(rules, '/a.txt')).toBe(true);
    expect(allowed(rules, '/b/a')).toBe(true);
    // A trailing slash on the rule does not change what it covers.
    expect(allowed([deny('/a/')], '/a')).toBe(false);
    expect(allowed([deny('/a/')], '/ab')).toBe(true);
  });

  it('treats a rule for / as covering everything', () => {
    expect(allowed([deny('/')], '/')).toBe(false);
    expect(allowed([deny('/')], '/deep/file')).toBe(false);
    expect(allowed([deny('/'), allow('/pub')], '/pub/file')).toBe(true);
  });

  it('canonicalises rule paths before matching', () => {
    expect(allowed([deny('/a//b')], '/a/b/c')).toBe(false);
    expect(allowed([deny('/a/./b')], '/a/b')).toBe(false);
    expect(allowed([deny('/x/../secret')], '/secret/file')).toBe(false);
  });

  it('applies regex rules as unanchored matches on the full path', () => {
    const rules = [denyRegex('\\.bak$')];
    expect(allowed(rules, '/notes.bak')).toBe(false);
    expect(allowed(rules, '/deep/dir/notes.bak')).toBe(false);
    expect(allowed(rules, '/notes.bak.txt')).toBe(true);
    expect(allowed([denyRegex('secret')], '/top/my-secret-dir/x')).toBe(false);
    expect(allowed([denyRegex('^/private/'), allowRegex('\\.pub$')], '/private/key.pub')).toBe(true);
    expect(allowed([denyRegex('^/private/'), allowRegex('\\.pub$')], '/private/key')).toBe(false);
  });

  it('folds case on case-insensitive filesystems only', () => {
    const rules = [deny('/Secret')];
    expect(allowed(rules, '/secret/x', { caseInsensitive: false })).toBe(true);
    expect(allowed(rules, '/Secret/x', { caseInsensitive: false })).toBe(false);
    for (const variant of ['/secret/x', '/SECRET/x', '/sEcReT', '/Secret']) {
      expect(allowed(rules, variant, { caseInsensitive: true }), variant).toBe(false);
    }
    expect(allowed(rules, '/secrets', { caseInsensitive: true })).toBe(true);
    // Case variants cannot slip past a regex rule either when names are folded by the filesystem.
    expect(allowed([denyRegex('\\.bak$')], '/x.BAK', { caseInsensitive: true })).toBe(false);
    expect(allowed([denyRegex('\\.bak$')], '/x.BAK', { caseInsensitive: false })).toBe(true);
  });

  it('treats NFC and NFD spellings of a name as the same path', () => {
    const composed = '/caf\u00e9';
    const decomposed = '/cafe\u0301';
    expect(composed).not.toBe(decomposed);
    expect(allowed([deny(composed)], decomposed)).toBe(false);
    expect(allowed([deny(decomposed)], composed)).toBe(false);
    expect(allowed([deny(composed)], `${decomposed}/menu.txt`)).toBe(false);
    expect(allowed([denyRegex('caf\u00e9')], decomposed)).toBe(false);
    expect(allowed([denyRegex('cafe\u0301')], composed)).toBe(false);
    expect(allowed([deny('/\u00c9t\u00e9')], '/e\u0301te\u0301', { caseInsensitive: true })).toBe(false);
  });

  it('denies everything under a stored deny expression that no longer compiles, never allows', () => {
    expect(allowed([denyRegex('(')], '/x')).toBe(false);
    expect(allowed([deny('/'), allowRegex('(')], '/x')).toBe(false);
  });
});

describe('validateRules', () => {
  function status(rules: Rule[]): number | undefined {
    try {
      validateRules(rules);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).status;
    }
  }

  it('accepts well-formed path and regex rules', () => {
    expect(status([deny('/private'), allowRegex('\\.txt$'), allow('/')])).toBeUndefined();
  });

  it('refuses invalid expressions, empty expressions and relative paths with 400', () => {
    expect(status([denyRegex('(unclosed')])).toBe(400);
    expect(status([denyRegex('[z-a]')])).toBe(400);
    expect(status([denyRegex('')])).toBe(400);
    expect(status([deny('relative/path')])).toBe(400);
    expect(status([deny('')])).toBe(400);
  });
});

describe('sanitiseRules', () => {
  it('keeps the four rule fields and nothing else', () => {
    const sent = [{ ...deny('/x'), extra: 'x'.repeat(100), regexp: { raw: '', more: 1 } }, { regex: true, allow: true, path: '' } as unknown as Rule];
    expect(sanitiseRules(sent as Rule[])).toEqual([deny('/x'), { regex: true, allow: true, path: '', regexp: { raw: '' } }]);
  });
});
