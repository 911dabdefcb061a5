import type { User } from '@burrow/protocol';
import type { UserRecord } from './users.model.js';

/** The wire view of a user: never the hash; the scope only for admins. */
export function toUserView(user: UserRecord, options: { viewerIsAdmin: boolean }): User {
  return {
    id: user.id,
    username: user.username,
    password: '',
    scope: options.viewerIsAdmin ? user.scope : '',
    locale: user.locale,
    lockPassword: user.lockPassword,
    viewMode: user.viewMode,
    singleClick: user.singleClick,
    redirectAfterCopyMove: user.redirectAfterCopyMove,
    perm: { ...user.perm },
    commands: [...user.commands],
    sorting: { ...user.sorting },
    rules: user.rules.map((rule) => ({ ...rule, regexp: { raw: rule.regexp?.raw ?? '' } })),
    hideDotfiles: user.hideDotfiles,
    dateFormat: user.dateFormat,
    aceEditorTheme: user.aceEditorTheme,
  };
}
