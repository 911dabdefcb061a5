import fs from 'node:fs';
import { Command, Option } from 'commander';
import { AuthMethods, PermissionNames } from '@burrow/protocol';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createCoreServices } from '../core-services.js';
import { allPermissions } from '../modules/users/users.model.js';
import { bootstrapAdmin } from '../modules/users/bootstrap.js';
import { setSetting } from './config-set.js';
import { createSandbox } from '../modules/commands/sandbox.js';
import { importFilebrowser, refuseBoltDatabase } from './import-filebrowser.js';

type GlobalFlags = Record<string, string | boolean | undefined>;

function addServerOptions(command: Command): Command {
  return command
    .option('-c, --config <file>', 'JSON config file (also BURROW_CONFIG)')
    .option('-r, --root <dir>', 'folder to serve (default ./data)')
    .option('-a, --address <address>', 'address to listen on (default 127.0.0.1)')
    .option('-p, --port <port>', 'port to listen on (default 8080)')
    .option('-d, --database <file>', 'SQLite database file (default ./burrow.db), or a postgres:// URL')
    .option('--database-pool-size <n>', 'connections kept open to PostgreSQL (default 10)')
    .option('-b, --base-url <prefix>', 'URL prefix when served below a path')
    .option('--token-expiration <duration>', 'token lifetime such as 2h or 90m')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .option('--cache-dir <dir>', 'folder for thumbnails and upload staging')
    .option('--enable-exec [bool]', 'allow the command runner')
    .option('--enable-thumbs [bool]', 'generate thumbnails')
    .option('--resize-preview [bool]', 'serve resized previews')
    .option('--follow-external-symlinks [bool]', 'follow links that leave a scope')
    .option('--trusted-proxies <list>', 'comma-separated addresses trusted for proxy authentication and X-Forwarded-For')
    .option('--allowed-hosts <list>', 'comma-separated Host names the server answers (* for any)')
    .option('--proxy-header <name>', 'header naming the user under proxy authentication')
    .option('--metrics [bool]', 'serve Prometheus metrics at /metrics');
}

const FLAG_KEYS: Record<string, keyof Config | 'configFile'> = {
  config: 'configFile',
  root: 'root',
  address: 'address',
  port: 'port',
  database: 'database',
  databasePoolSize: 'databasePoolSize',
  baseUrl: 'baseURL',
  tokenExpiration: 'tokenExpiration',
  logLevel: 'logLevel',
  cacheDir: 'cacheDir',
  enableExec: 'enableExec',
  enableThumbs: 'enableThumbs',
  resizePreview: 'resizePreview',
  followExternalSymlinks: 'followExternalSymlinks',
  trustedProxies: 'trustedProxies',
  allowedHosts: 'allowedHosts',
  proxyHeader: 'proxyHeader',
  metrics: 'metrics',
};

function configFromFlags(flags: GlobalFlags): Config {
  const mapped: Record<string, unknown> = {};
  let configFile: string | undefined;
  for (const [flag, value] of Object.entries(flags)) {
    const key = FLAG_KEYS[flag];
    if (!key || value === undefined) continue;
    if (key === 'configFile') configFile = String(value);
    else mapped[key] = value;
  }
  return loadConfig({ flags: mapped, configFile });
}

async function openStores(config: Config) {
  refuseBoltDatabase(config);
  // As at server start: the root must exist before scopes are resolved and probed, so user
  // commands work on a machine where the server has never run.
  fs.mkdirSync(config.root, { recursive: true, mode: config.dirMode });
  const log = { warn: (message: string) => process.stdout.write(`${message}\n`) } as never;
  // The same core services the server builds (see core-services.ts), without the feature modules.
  const core = await createCoreServices(config, { log, listen: false });
  const { db, settings, scopes, usersRepository: users, users: usersService } = core;
  await bootstrapAdmin({ config, users, scopes, log, onPassword: (password) => process.stdout.write(`created user "admin" with password ${password}\n`) });
  return { db, settings, scopes, users, usersService };
}

function print(value: unknown) {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export async function runCli(argv: string[]): Promise<void> {
  const program = new Command();
  program.name('burrow').description('Burrow, a self-hosted web file manager').version('0.1.0');
  program.showHelpAfterError();
  program.exitOverride((error) => {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') process.exit(0);
    process.exit(2);
  });

  addServerOptions(program.command('serve', { isDefault: true }).description('serve the web app and API'))
    .action(async (flags: GlobalFlags) => {
      const config = withConfig(flags);
      // A filebrowser database must be imported, not opened as SQLite.
      refuseBoltDatabase(config);
      // Loaded on demand: the user and config commands need none of the feature modules (image,
      // archive and compression libraries), and start much faster without them.
      const { serve } = await import('./serve.js');
      await serve(config);
    });

  const users = program.command('users').description('manage users');
  addServerOptions(users.command('ls').description('list users')).action(async (flags: GlobalFlags) => {
    const stores = await openStores(withConfig(flags));
    try {
      for (const user of await stores.users.list()) {
        process.stdout.write(`${user.id}\t${user.username}\t${user.perm.admin ? 'admin' : 'user'}\t${user.scope}\n`);
      }
    } finally {
      await stores.db.destroy();
    }
  });
  addServerOptions(
    users
      .command('add <username> <password>')
      .description('create a user')
      .option('--admin', 'grant every permission')
      .option('--scope <path>', 'scope inside the root')
      .option('--perm <list>', 'comma-separated permissions (create,rename,modify,delete,share,download,execute)'),
  ).action(async (username: string, password: string, flags: GlobalFlags) => {
    const config = withConfig(flags);
    const stores = await openStores(config);
    const defaults = stores.settings.get().defaults;
    try {
      const admin = (await stores.users.list()).find((user) => user.perm.admin);
      if (!admin) throw new Error('no admin user to act as');
      const named = flags.perm ? String(flags.perm).split(',').map((name) => name.trim()).filter(Boolean) : [];
      const unknown = named.filter((name) => !(PermissionNames as readonly string[]).includes(name));
      if (unknown.length) throw new Error(`unknown permission ${unknown.join(', ')}; use ${PermissionNames.join(', ')}`);
      const perm = flags.admin
        ? allPermissions()
        : flags.perm
          ? Object.fromEntries(PermissionNames.map((name) => [name, named.includes(name)]))
          : defaults.perm;
      const id = await stores.usersService.create(
        admin,
        { what: 'user', which: [], data: { username, password, scope: flags.scope ? String(flags.scope) : '', perm: perm as never } },
        { trusted: true },
      );
      process.stdout.write(`created user ${username} (id ${id})\n`);
    } finally {
      await stores.db.destroy();
    }
  });
  addServerOptions(users.command('rm <username>').description('delete a user')).action(async (username: string, flags: GlobalFlags) => {
    const stores = await openStores(withConfig(flags));
    try {
      const user = await stores.users.findByUsername(username);
      if (!user) throw new Error(`no user named ${username}`);
      // Through the service, so the sole-admin rule and deletion listeners apply as over HTTP.
      await stores.usersService.remove({ ...user, perm: allPermissions() }, user.id, undefined, { trusted: true });
      process.stdout.write(`deleted user ${username}\n`);
    } finally {
      await stores.db.destroy();
    }
  });
  addServerOptions(
    users
      .command('update <username>')
      .description('change a user')
      .option('--password <password>', 'new password')
      .option('--scope <path>', 'new scope')
      .addOption(new Option('--admin <bool>', 'grant or remove admin').choices(['true', 'false']))
      .addOption(new Option('--lock-password <bool>', 'stop the user changing their password').choices(['true', 'false'])),
  ).action(async (username: string, flags: GlobalFlags) => {
    const stores = await openStores(withConfig(flags));
    try {
      const user = await stores.users.findByUsername(username);
      if (!user) throw new Error(`no user named ${username}`);
      const data: Record<string, unknown> = { id: user.id };
      if (flags.password !== undefined) data.password = flags.password;
      if (flags.scope !== undefined) data.scope = flags.scope;
      if (flags.admin !== undefined) data.perm = flags.admin === 'true' ? allPermissions() : { ...user.perm, admin: false };
      if (flags.lockPassword !== undefined) data.lockPassword = flags.lockPassword === 'true';
      const which = Object.keys(data).filter((name) => name !== 'id');
      if (!which.length) throw new Error('nothing to change: give --password, --scope, --admin or --lock-password');
      const admin = { ...user, perm: allPermissions() };
      await stores.usersService.update(admin, user.id, { what: 'user', which, data: data as never }, { trusted: true });
      process.stdout.write(`updated user ${username}\n`);
    } finally {
      await stores.db.destroy();
    }
  });

  const configCommand = program.command('config').description('show or change the stored settings');
  addServerOptions(configCommand.command('show').description('print the settings')).action(async (flags: GlobalFlags) => {
    const config = withConfig(flags);
    const stores = await openStores(config);
    try {
      const { adminPassword: _hidden, recaptchaSecret: _secret, metricsToken: _token, ...server } = config;
      // The single sign-on client secret shows only as set or not.
      const { clientSecret: _clientSecret, ...oidc } = config.oidc;
      Object.assign(server, { oidc: { ...oidc, ...(config.oidc.clientSecret ? { clientSecret: '(set)' } : {}) } });
      // Whether commands and hooks can run here, or why not (the same check as at server start).
      const sandbox = await createSandbox(config).ready;
      const commandRunner = sandbox.available ? 'available' : `off: ${sandbox.reason}`;
      print({ server, commandRunner, settings: stores.settings.get() });
    } finally {
      await stores.db.destroy();
    }
  });
  addServerOptions(
    configCommand
      .command('set <key> <value>')
      .description(`change one setting, e.g. signup true, authMethod (${AuthMethods.join('|')}), minimumPasswordLength 12, branding.name Burrow`),
  ).action(async (key: string, value: string, flags: GlobalFlags) => {
    const stores = await openStores(withConfig(flags));
    try {
      await setSetting(stores.settings, key, value);
      process.stdout.write(`${key} = ${JSON.stringify(value)}\n`);
    } finally {
      await stores.db.destroy();
    }
  });

  const importCommand = program.command('import').description('take users, settings and share links over from another file manager');
  addServerOptions(
    importCommand
      .command('filebrowser <file>')
      .description("import filebrowser's database (filebrowser.db), or a file written by `filebrowser config export` or `filebrowser users export`")
      .option('--dry-run', 'print what would be imported and what cannot be mapped, and write nothing')
      .option('--merge', 'update users and share links that already exist instead of refusing them'),
  ).action(async (file: string, flags: GlobalFlags) => {
    await importFilebrowser(file, withConfig(flags), { dryRun: flags.dryRun === true, merge: flags.merge === true });
  });

  program
    .command('migrate')
    .description('copy every user, setting, link, upload, token, trash and audit record from one database into an empty one')
    .requiredOption('--from <database>', 'the database to copy, e.g. burrow.db')
    .requiredOption('--to <database>', 'the empty database to fill, e.g. postgres://burrow@localhost/burrow')
    .action(async (flags: { from: string; to: string }) => {
      const { migrateDatabase, describeDatabase } = await import('./migrate.js');
      const report = await migrateDatabase(flags.from, flags.to);
      const total = report.tables.reduce((sum, table) => sum + table.rows, 0);
      for (const table of report.tables) process.stdout.write(`${table.table}\t${table.rows}\n`);
      process.stdout.write(`copied ${total} rows in ${report.tables.length} tables from ${describeDatabase(flags.from)} to ${describeDatabase(flags.to)}; the search index is rebuilt at the next start\n`);
    });

  await program.parseAsync(argv);
}

function withConfig(flags: GlobalFlags): Config {
  try {
    return configFromFlags(flags);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`burrow: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
