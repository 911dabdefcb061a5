import type { Services } from '../../app.js';
import type { UserRecord } from '../users/users.model.js';
import type { Scope } from '../../storage/scoped-fs.js';
import type { Hooks } from './hooks.js';

/** What the file use-cases need: the shared services plus the hook runner. */
export type FilesDeps = Pick<Services, 'config' | 'db' | 'scopes' | 'fileEvents' | 'settings'> & {
  hooks: Hooks;
};

/** The acting user and their confined view of the filesystem. */
export type Actor = { user: UserRecord; scope: Scope };
