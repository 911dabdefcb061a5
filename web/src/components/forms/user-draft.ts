import type { Permissions, Rule, User, UserDefaults } from '@burrow/protocol';

/** What the user form edits. Commands stay as typed text until saved. */
export type UserDraft = {
  username: string;
  password: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  perm: Permissions;
  commandsText: string;
  rules: Rule[];
};

/** Permission names besides admin, in the order the form lists them. */
export const PermissionFields = ['create', 'delete', 'download', 'modify', 'execute', 'rename', 'share'] as const satisfies readonly (keyof Permissions)[];

/** Splits space-separated command names, dropping empty words. */
export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

export function draftFromUser(user: User): UserDraft {
  return {
    username: user.username,
    password: '',
    scope: user.scope,
    locale: user.locale,
    lockPassword: user.lockPassword,
    perm: { ...user.perm },
    commandsText: user.commands.join(' '),
    rules: user.rules.map((rule) => ({ ...rule, regexp: { raw: rule.regexp.raw } })),
  };
}

export function draftFromDefaults(defaults: UserDefaults): UserDraft {
  return {
    username: '',
    password: '',
    scope: defaults.scope,
    locale: defaults.locale,
    lockPassword: false,
    perm: { ...defaults.perm },
    commandsText: defaults.commands.join(' '),
    rules: [],
  };
}

/**
 * Turning admin on grants every permission and clears lockPassword (an admin may always change
 * their password); turning it off keeps the other permissions as they are, now editable again.
 */
export function withAdmin(draft: UserDraft, isAdmin: boolean): UserDraft {
  if (!isAdmin) return { ...draft, perm: { ...draft.perm, admin: false } };
  const perm = Object.fromEntries(Object.keys(draft.perm).map((name) => [name, true])) as Permissions;
  return { ...draft, perm, lockPassword: false };
}

/** Rules with nothing typed in them mean nothing; the server would refuse them, so they are left out. */
export function meaningfulRules(rules: readonly Rule[]): Rule[] {
  return rules
    .filter((rule) => (rule.regex ? rule.regexp.raw.trim() !== '' : rule.path.trim() !== ''))
    .map((rule) => ({ ...rule, path: rule.path.trim(), regexp: { raw: rule.regexp.raw } }));
}

/** A rule as the New button adds it: an allowing path rule, empty. */
export function newRule(): Rule {
  return { regex: false, allow: true, path: '', regexp: { raw: '' } };
}
