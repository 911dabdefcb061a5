import type { User } from '@burrow/protocol';
import { describe, expect, it } from 'vitest';
import { draftFromDefaults, draftFromUser, meaningfulRules, newRule, splitWords, withAdmin } from './user-draft';

const perm = { admin: false, execute: false, create: true, rename: false, modify: true, delete: false, share: false, download: true };

const user: User = {
  id: 4,
  username: 'bob',
  password: '',
  scope: '/users/bob',
  locale: 'de',
  lockPassword: true,
  viewMode: 'list',
  singleClick: false,
  redirectAfterCopyMove: true,
  sorting: { by: 'name', asc: true },
  perm,
  commands: ['git', 'ls'],
  hideDotfiles: false,
  dateFormat: false,
  aceEditorTheme: '',
  rules: [{ regex: false, allow: false, path: '/secret', regexp: { raw: '' } }],
};

describe('user drafts', () => {
  it('start from a record with commands as text and an empty password', () => {
    const draft = draftFromUser(user);
    expect(draft).toMatchObject({ username: 'bob', password: '', scope: '/users/bob', locale: 'de', lockPassword: true, commandsText: 'git ls' });
    // Edits to the draft never reach the loaded record.
    draft.perm.create = false;
    draft.rules[0]!.regexp.raw = 'x';
    expect(user.perm.create).toBe(true);
    expect(user.rules[0]!.regexp.raw).toBe('');
  });

  it('start from the defaults without username, password, lock or rules', () => {
    const draft = draftFromDefaults({ ...user, commands: ['du'] });
    expect(draft).toMatchObject({ username: '', password: '', lockPassword: false, rules: [], commandsText: 'du', scope: '/users/bob' });
  });

  it('admin on grants every permission and clears the password lock; off keeps the rest', () => {
    const admin = withAdmin(draftFromUser(user), true);
    expect(Object.values(admin.perm).every(Boolean)).toBe(true);
    expect(admin.lockPassword).toBe(false);
    const back = withAdmin(admin, false);
    expect(back.perm).toEqual({ ...admin.perm, admin: false });
    expect(back.lockPassword).toBe(false);
  });

  it('split commands on any run of spaces and drop empty words', () => {
    expect(splitWords('  git   ls\tdu  ')).toEqual(['git', 'ls', 'du']);
    expect(splitWords('   ')).toEqual([]);
  });

  it('leave out rules with nothing typed in them', () => {
    const rules = [
      newRule(),
      { ...newRule(), path: ' /docs ' },
      { ...newRule(), regex: true, path: '/ignored', regexp: { raw: '' } },
      { ...newRule(), regex: true, allow: false, regexp: { raw: '\\.bak$' } },
    ];
    expect(meaningfulRules(rules)).toEqual([
      { regex: false, allow: true, path: '/docs', regexp: { raw: '' } },
      { regex: true, allow: false, path: '', regexp: { raw: '\\.bak$' } },
    ]);
  });
});
