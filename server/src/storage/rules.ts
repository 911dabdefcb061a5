import type { Rule } from '@burrow/protocol';
import { badRequest } from '../errors.js';
import { cleanVirtualPath } from './virtual-path.js';

/** Throws a 400 when a rule is malformed (an invalid regex would otherwise deny or crash later). */
export function validateRules(rules: Rule[]): void {
  for (const rule of rules) {
    if (rule.regex) {
      if (!rule.regexp?.raw) throw badRequest('a regex rule needs an expression');
      try {
        new RegExp(rule.regexp.raw);
      } catch {
        throw badRequest(`invalid rule expression ${rule.regexp.raw}`);
      }
    } else if (!rule.path || !rule.path.startsWith('/')) {
      throw badRequest('a path rule needs an absolute path');
    }
  }
}

/** The stored form of rules: known fields only, whatever else a client sent along. */
export function sanitiseRules(rules: Rule[]): Rule[] {
  return rules.map((rule) => ({ regex: rule.regex, allow: rule.allow, path: rule.path, regexp: { raw: rule.regexp?.raw ?? '' } }));
}

type CompiledRule = { allow: boolean; test: (path: string) => boolean };

/** Normalises a path for rule matching: NFC, and case-folded on case-insensitive filesystems. */
function matchForm(value: string, caseInsensitive: boolean): string {
  const normal = value.normalize('NFC');
  return caseInsensitive ? normal.toLowerCase() : normal;
}

/** A rule path in canonical form, so `/a//b/` or `/x/../a` cover what they say. */
function canonicalRulePath(rulePath: string): string {
  try {
    return cleanVirtualPath(rulePath).path;
  } catch {
    return rulePath.replace(/\/+$/, '') || '/';
  }
}

function compile(rule: Rule, caseInsensitive: boolean): CompiledRule {
  if (rule.regex) {
    let expression: RegExp | undefined;
    try {
      // The source is normalised like the paths it is tested against, and folded where the
      // filesystem folds names: otherwise `X.BAK` would walk past a rule written for `.bak`.
      expression = new RegExp(rule.regexp.raw.normalize('NFC'), caseInsensitive ? 'iu' : 'u');
    } catch {
      try {
        expression = new RegExp(rule.regexp.raw.normalize('NFC'), caseInsensitive ? 'i' : '');
      } catch {
        expression = undefined;
      }
    }
    // A stored expression that no longer compiles denies everything rather than nothing.
    return { allow: rule.allow, test: (path) => (expression ? expression.test(path.normalize('NFC')) : !rule.allow) };
  }
  const base = matchForm(canonicalRulePath(rule.path), caseInsensitive);
  return {
    allow: rule.allow,
    test: (path) => {
      if (base === '/') return true;
      const candidate = matchForm(path, caseInsensitive);
      return candidate === base || candidate.startsWith(base + '/');
    },
  };
}

/**
 * Rule evaluation: start from allow, walk the global rules then the user's; each matching rule
 * sets the result, so the last match wins and user rules override global ones. Path rules match
 * on segment boundaries (`/a` never matches `/ab`).
 */
export function createRuleChecker(globalRules: Rule[], userRules: Rule[], options: { caseInsensitive?: boolean } = {}) {
  const compiled = [...globalRules, ...userRules].map((rule) => compile(rule, options.caseInsensitive ?? false));
  return {
    hasRules: compiled.length > 0,
    isAllowed(virtualPath: string): boolean {
      let allowed = true;
      for (const rule of compiled) {
        if (rule.test(virtualPath)) allowed = rule.allow;
      }
      return allowed;
    },
  };
}
export type RuleChecker = ReturnType<typeof createRuleChecker>;
