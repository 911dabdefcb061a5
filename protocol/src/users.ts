import { Type, type Static } from '@sinclair/typebox';

export const Permissions = Type.Object({
  admin: Type.Boolean(),
  execute: Type.Boolean(),
  create: Type.Boolean(),
  rename: Type.Boolean(),
  modify: Type.Boolean(),
  delete: Type.Boolean(),
  share: Type.Boolean(),
  download: Type.Boolean(),
});
export type Permissions = Static<typeof Permissions>;
export const PermissionNames = ['admin', 'execute', 'create', 'rename', 'modify', 'delete', 'share', 'download'] as const;
export type PermissionName = (typeof PermissionNames)[number];

export const Rule = Type.Object({
  regex: Type.Boolean(),
  allow: Type.Boolean(),
  path: Type.String(),
  regexp: Type.Object({ raw: Type.String() }),
});
export type Rule = Static<typeof Rule>;

export const Sorting = Type.Object({
  by: Type.String(),
  asc: Type.Boolean(),
});
export type Sorting = Static<typeof Sorting>;

export const ViewModes = ['list', 'mosaic', 'mosaic gallery'] as const;
export type ViewMode = (typeof ViewModes)[number];

/** Fields every user record and the new-user defaults share. */
const userPreferenceFields = {
  scope: Type.String(),
  locale: Type.String(),
  viewMode: Type.String(),
  singleClick: Type.Boolean(),
  redirectAfterCopyMove: Type.Boolean(),
  sorting: Sorting,
  perm: Permissions,
  commands: Type.Array(Type.String()),
  hideDotfiles: Type.Boolean(),
  dateFormat: Type.Boolean(),
  aceEditorTheme: Type.String(),
};

export const UserDefaults = Type.Object(userPreferenceFields);
export type UserDefaults = Static<typeof UserDefaults>;

/** A user as the API returns it. `password` is always "". */
export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  password: Type.String(),
  lockPassword: Type.Boolean(),
  rules: Type.Array(Rule),
  ...userPreferenceFields,
});
export type User = Static<typeof User>;

/** The user claims carried inside the JWT (no scope, rules, sorting or password). */
export const TokenUser = Type.Object({
  id: Type.Integer(),
  locale: Type.String(),
  viewMode: Type.String(),
  singleClick: Type.Boolean(),
  redirectAfterCopyMove: Type.Boolean(),
  perm: Permissions,
  commands: Type.Array(Type.String()),
  lockPassword: Type.Boolean(),
  hideDotfiles: Type.Boolean(),
  dateFormat: Type.Boolean(),
  username: Type.String(),
  aceEditorTheme: Type.String(),
});
export type TokenUser = Static<typeof TokenUser>;

export type TokenPayload = { user: TokenUser; iss: string; exp: number; iat: number; jti?: string };

/** Body of POST /api/users and PUT /api/users/{id}. */
export const UserWriteRequest = Type.Object({
  what: Type.String(),
  which: Type.Array(Type.String()),
  current_password: Type.Optional(Type.String()),
  /** User fields by name (`Partial<User>`); each named field is checked on its own by the server. */
  data: Type.Record(Type.String(), Type.Unknown()),
});
export type UserWriteRequest = Static<typeof UserWriteRequest>;

export const UserDeleteRequest = Type.Object({
  current_password: Type.Optional(Type.String()),
});
export type UserDeleteRequest = Static<typeof UserDeleteRequest>;

/** Fields a user may change on their own record without being admin. */
export const SelfEditableFields = [
  'locale',
  'viewMode',
  'singleClick',
  'redirectAfterCopyMove',
  'sorting',
  'hideDotfiles',
  'dateFormat',
  'aceEditorTheme',
  'password',
] as const;

/** Fields only an admin may change. */
export const AdminOnlyFields = ['username', 'scope', 'lockPassword', 'perm', 'commands', 'rules'] as const;

/** Fields whose change requires the requester's current password (json auth). */
export const SensitiveFields = ['all', 'username', 'password', 'scope', 'commands', 'perm'] as const;
