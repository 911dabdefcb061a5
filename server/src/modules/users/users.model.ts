import type { Permissions, Rule, Sorting } from '@burrow/protocol';

/** A stored user as the server works with it. Only presenters turn it into wire shapes. */
export type UserRecord = {
  id: number;
  username: string;
  passwordHash: string;
  scope: string;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
  sorting: Sorting;
  lockPassword: boolean;
  perm: Permissions;
  commands: string[];
  rules: Rule[];
  tokensValidAfter: number;
  /** The one token id still valid although issued before tokensValidAfter (own password change). */
  keptTokenJti: string | null;
  updatedAt: number;
  createdAt: number;
};

export type NewUserRecord = Omit<UserRecord, 'id' | 'tokensValidAfter' | 'keptTokenJti' | 'updatedAt' | 'createdAt'>;

export const allPermissions = (): Permissions => ({
  admin: true,
  execute: true,
  create: true,
  rename: true,
  modify: true,
  delete: true,
  share: true,
  download: true,
});
