import type { Config } from '../../config.js';
import type { Db } from '../../storage/db.js';
import type { FileEvents } from '../../storage/file-events.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRecord } from '../users/users.model.js';
import type { Scope } from '../../storage/scoped-fs.js';
import type { Hooks } from './hooks.js';

/** What the file services are built from: the shared services without the hook runner. */
export type FilesServiceDeps = { config: Config; db: Db; scopes: Scopes; fileEvents: FileEvents; settings: SettingsService };

/** What the file use-cases need: the shared services plus the hook runner. */
export type FilesDeps = FilesServiceDeps & {
  hooks: Hooks;
};

/** The acting user and their confined view of the filesystem. */
export type Actor = { user: UserRecord; scope: Scope };
