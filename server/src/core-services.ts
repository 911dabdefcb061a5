import { isPostgresUrl, type Config } from './config.js';
import { openDatabase, type Db } from './storage/db.js';
import { createCluster, type Cluster } from './storage/cluster.js';
import { createScopes, type Scopes } from './storage/scopes.js';
import { createFileEvents, type FileEvents } from './storage/file-events.js';
import { createSettingsService, type SettingsService } from './modules/settings/settings.service.js';
import { createUsersRepository, type UsersRepository } from './modules/users/users.repository.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createPasswordGuard, LoginPolicy } from './modules/auth/password-guard.js';
import { createSignInState, type SignInState } from './modules/auth/sign-in-state.js';

/** The services every entry point needs: the server, and the CLI's user and config commands. */
export type CoreServices = {
  config: Config;
  db: Db;
  /** Messages between instances sharing the database, and work done once among them. */
  cluster: Cluster;
  /** Guess counts, two-factor challenges and sign-on flows: in memory, or shared through the database. */
  signIn: SignInState;
  settings: SettingsService;
  scopes: Scopes;
  usersRepository: UsersRepository;
  users: UsersService;
  auth: AuthService;
  /** Changes made on disk through Burrow (search index, thumbnails, shares and the audit log listen). */
  fileEvents: FileEvents;
};

export type CoreOptions = {
  /** Where warnings of the core services go (the server's logger, or the terminal for the CLI). */
  log: { warn: (object: unknown, message: string) => void };
  /** Replaces the global fetch for outgoing calls (reCAPTCHA verification in tests). */
  fetchImpl?: typeof fetch;
  /**
   * Whether to hear what other instances publish (a server does; a command-line run only tells
   * the running instances about its changes and keeps no connection open for them).
   */
  listen?: boolean;
};

/**
 * The first layer of the composition root: opens the database and builds the settings, scopes,
 * users and authentication, each once. `createServices` builds the feature services on top; the
 * CLI stops here, so its commands load none of the feature modules.
 */
export async function createCoreServices(config: Config, options: CoreOptions): Promise<CoreServices> {
  const db = await openDatabase(config.database, { poolSize: config.databasePoolSize });
  const cluster = createCluster(db, { url: isPostgresUrl(config.database) && options.listen !== false ? config.database : undefined, log: options.log });
  try {
    const settings = await createSettingsService(db, cluster);
    const scopes = createScopes(config, settings);
    const usersRepository = createUsersRepository(db);
    // Instances sharing the database share what sign-in remembers; one instance keeps it in memory.
    const signIn = createSignInState(db, cluster.shared);
    // One budget of password guesses per account, whether they come through login or through the
    // current password asked by user updates.
    const guard = createPasswordGuard(LoginPolicy, { limits: signIn.limits, name: 'login' });
    const users = createUsersService({ users: usersRepository, settings, scopes, guard, cluster });
    const auth = createAuthService({ config, db, settings, users: usersRepository, usersService: users, fetchImpl: options.fetchImpl, guard, limits: signIn.limits });
    const fileEvents = createFileEvents(options.log);
    return { config, db, cluster, signIn, settings, scopes, usersRepository, users, auth, fileEvents };
  } catch (error) {
    await cluster.close();
    await db.destroy();
    throw error;
  }
}
