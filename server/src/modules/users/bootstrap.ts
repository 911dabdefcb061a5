import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Scopes } from '../../storage/scopes.js';
import type { UsersRepository } from './users.repository.js';
import { allPermissions } from './users.model.js';
import { hashPassword } from '../auth/passwords.js';

/**
 * First run on an empty database: user `admin` (id 1). Its password comes from the
 * configuration when set; otherwise a random one is generated and printed once.
 * There is never a default password.
 */
export async function bootstrapAdmin(deps: {
  config: Config;
  users: UsersRepository;
  scopes: Scopes;
  log: FastifyBaseLogger;
  onPassword?: (password: string) => void;
}): Promise<void> {
  if ((await deps.users.count()) > 0) return;
  const generated = !deps.config.adminPassword;
  const password = deps.config.adminPassword || crypto.randomBytes(12).toString('base64url');
  await deps.scopes.scopeRoot('/');
  try {
    await insertAdmin(deps.users, await hashPassword(password));
  } catch (error) {
    // Instances of a cluster started together on an empty database race for the first run: the
    // one that lost finds the admin the winner made (and its password is the winner's to print).
    if ((await deps.users.count()) > 0) return;
    throw error;
  }
  if (generated) {
    if (deps.onPassword) deps.onPassword(password);
    else deps.log.warn(`created user "admin" with the generated password ${password} (shown once; change it after logging in)`);
  }
}

function insertAdmin(users: UsersRepository, passwordHash: string) {
  return users.insert(
    {
      username: 'admin',
      passwordHash,
      scope: '/',
      locale: 'en',
      viewMode: 'mosaic',
      singleClick: false,
      redirectAfterCopyMove: true,
      hideDotfiles: false,
      dateFormat: false,
      aceEditorTheme: '',
      sorting: { by: 'name', asc: false },
      lockPassword: false,
      perm: allPermissions(),
      commands: [],
      rules: [],
    },
    1,
  );
}
