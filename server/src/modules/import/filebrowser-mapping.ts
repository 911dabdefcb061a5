import path from 'node:path';
import { AuthMethods, DefaultMinimumPasswordLength, HookEvents, PermissionNames, ViewModes, type Permissions, type Rule, type Settings } from '@burrow/protocol';
import { freshSettings } from '../settings/settings.defaults.js';
import { allPermissions, type NewUserRecord } from '../users/users.model.js';
import { looksLikeShareHash } from '../shares/share-secrets.js';
import { envName, parseDuration } from '../../config.js';
import type { Fields, FilebrowserData } from './filebrowser-source.js';

/** A user to import, with the id it had in filebrowser. */
type ImportedUser = { id: number; record: NewUserRecord };

/** A share link to import; `userId` is the owner's filebrowser id. */
type ImportedShare = { hash: string; path: string; userId: number; expire: number; passwordHash: string; token: string };

/** One server setting filebrowser kept in its database and Burrow takes from flags or environment. */
type ServerSetting = { key: string; flag?: string; value: string; from: string };

export type ImportPlan = {
  users: ImportedUser[];
  shares: ImportedShare[];
  /** Global settings, when the source holds them (a users export does not). */
  settings?: Settings;
  server: ServerSetting[];
  /** Values that cannot be carried over as they were, each with what happens instead. */
  notes: string[];
  /** Reasons the import cannot go ahead at all. */
  problems: string[];
};

const SORT_FIELDS = ['name', 'size', 'modified'];
const BCRYPT = /^\$2[abxy]\$\d\d\$[./A-Za-z0-9]{53}$/;

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback);
const bool = (value: unknown, fallback = false): boolean => (typeof value === 'boolean' ? value : fallback);
const obj = (value: unknown): Fields => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) ? number : undefined;
}

/** A filebrowser scope (relative to its root, `.` for the root itself) as a Burrow scope. */
function mapScope(scope: string): string {
  return path.posix.normalize(path.posix.join('/', scope.replace(/\\/g, '/'))).replace(/\/+$/, '') || '/';
}

function mapPerm(value: unknown): Permissions {
  const perm = obj(value);
  return Object.fromEntries(PermissionNames.map((name) => [name, perm[name] === true])) as Permissions;
}

/**
 * Rules, kept with their regular expressions. An expression JavaScript cannot compile (Go's RE2
 * syntax differs in places, e.g. `(?i)`) cannot be kept: an allow rule is left out (which only
 * narrows access), a deny rule stops the import, since dropping it would expose what it hid.
 */
function mapRules(value: unknown, owner: string, plan: ImportPlan): Rule[] {
  const rules: Rule[] = [];
  for (const raw of list(value)) {
    const rule = obj(raw);
    const regex = bool(rule.regex);
    const allow = bool(rule.allow);
    const expression = str(obj(rule.regexp).raw);
    const rulePath = str(rule.path);
    if (regex) {
      let compiles = expression !== '';
      try {
        if (compiles) new RegExp(expression, 'u');
      } catch {
        try {
          new RegExp(expression);
        } catch {
          compiles = false;
        }
      }
      if (!compiles) {
        if (allow) plan.notes.push(`${owner}: allow rule ${JSON.stringify(expression)} is not a valid JavaScript regular expression; left out`);
        else plan.problems.push(`${owner}: deny rule ${JSON.stringify(expression)} is not a valid JavaScript regular expression; rewrite it in filebrowser (or remove it) and import again`);
        continue;
      }
    } else if (!rulePath.startsWith('/')) {
      if (allow) plan.notes.push(`${owner}: allow rule for path ${JSON.stringify(rulePath)} is not an absolute path; left out`);
      else plan.problems.push(`${owner}: deny rule for path ${JSON.stringify(rulePath)} is not an absolute path; fix it in filebrowser and import again`);
      continue;
    }
    rules.push({ regex, allow, path: rulePath, regexp: { raw: expression } });
  }
  return rules;
}

function mapViewMode(value: unknown, fallback: string, owner: string, plan: ImportPlan): string {
  const mode = str(value);
  if (mode === '') return fallback;
  if ((ViewModes as readonly string[]).includes(mode)) return mode;
  plan.notes.push(`${owner}: view mode ${JSON.stringify(mode)} is unknown to Burrow; ${fallback} is used`);
  return fallback;
}

function mapSorting(value: unknown, owner: string, plan: ImportPlan): { by: string; asc: boolean } {
  const sorting = obj(value);
  let by = str(sorting.by);
  if (by && !SORT_FIELDS.includes(by)) {
    plan.notes.push(`${owner}: sorting by ${JSON.stringify(by)} is unknown to Burrow; sorting by name`);
    by = '';
  }
  return { by: by || 'name', asc: bool(sorting.asc) };
}

function mapCommands(value: unknown, owner: string, plan: ImportPlan): string[] {
  const commands: string[] = [];
  for (const command of list(value)) {
    const name = str(command).trim();
    if (!name) continue;
    if (/\s/.test(name) || name.length > 255) plan.notes.push(`${owner}: command ${JSON.stringify(name)} is not a single command name; left out`);
    else commands.push(name);
  }
  return commands;
}

function mapUser(user: Fields, defaults: Settings['defaults'], plan: ImportPlan): ImportedUser | undefined {
  const username = str(user.username);
  const id = wholeNumber(user.id);
  const owner = `user ${JSON.stringify(username)}`;
  // eslint-disable-next-line no-control-regex -- control characters are refused in names
  if (!username.trim() || username.length > 255 || /[\u0000-\u001f\u007f/\\]/.test(username) || username !== username.trim()) {
    plan.problems.push(`${owner}: the name cannot be a Burrow username (empty, too long, surrounding spaces, slashes or control characters)`);
    return undefined;
  }
  if (id === undefined || id < 1) {
    plan.problems.push(`${owner}: has no valid id`);
    return undefined;
  }
  const passwordHash = str(user.password);
  if (!BCRYPT.test(passwordHash)) {
    plan.notes.push(`${owner}: the stored password is not a bcrypt hash, so no password will log in; set one with \`burrow users update ${username} --password …\``);
  }
  const perm = mapPerm(user.perm);
  let lockPassword = bool(user.lockpassword);
  if (perm.admin) {
    const missing = PermissionNames.filter((name) => !perm[name]);
    if (missing.length) plan.notes.push(`${owner}: admins hold every permission in Burrow; ${missing.join(', ')} granted`);
    if (lockPassword) plan.notes.push(`${owner}: an admin's password cannot be locked in Burrow; unlocked`);
    Object.assign(perm, allPermissions());
    lockPassword = false;
  } else if (perm.share && !perm.download) {
    plan.notes.push(`${owner}: sharing needs the download permission in Burrow; share permission removed`);
    perm.share = false;
  }
  const locale = str(user.locale, defaults.locale);
  if (locale.length > 16) plan.notes.push(`${owner}: locale ${JSON.stringify(locale)} is too long; ${defaults.locale} is used`);
  let aceEditorTheme = str(user.aceeditortheme);
  if (aceEditorTheme.length > 64) {
    plan.notes.push(`${owner}: editor theme name too long; the default theme is used`);
    aceEditorTheme = '';
  }
  return {
    id,
    record: {
      username,
      passwordHash,
      scope: mapScope(str(user.scope, '.')),
      locale: locale.length > 16 ? defaults.locale : locale,
      // filebrowser shows the list view for users saved without one.
      viewMode: mapViewMode(user.viewmode, 'list', owner, plan),
      singleClick: bool(user.singleclick),
      redirectAfterCopyMove: bool(user.redirectaftercopymove, true),
      hideDotfiles: bool(user.hidedotfiles),
      dateFormat: bool(user.dateformat),
      aceEditorTheme,
      sorting: mapSorting(user.sorting, owner, plan),
      lockPassword,
      perm,
      commands: mapCommands(user.commands, owner, plan),
      rules: mapRules(user.rules, owner, plan),
    },
  };
}

function mapSettings(source: Fields, auther: Fields | undefined, plan: ImportPlan): Settings {
  const settings = freshSettings();
  const where = 'settings';
  settings.signup = bool(source.signup);
  if (typeof source.hideloginbutton === 'boolean') settings.hideLoginButton = source.hideloginbutton;
  settings.createUserDir = bool(source.createuserdir);
  const home = str(source.userhomebasepath).trim();
  if (home.split(/[\\/]/).includes('..')) plan.notes.push(`${where}: user home base path ${JSON.stringify(home)} leaves the root; /users is used`);
  else if (home) settings.userHomeBasePath = home;
  const minimum = wholeNumber(source.minimumpasswordlength);
  if (minimum !== undefined && minimum >= 1 && minimum <= 1024) settings.minimumPasswordLength = minimum;
  else if (minimum === undefined || minimum === 0) plan.notes.push(`${where}: no minimum password length set; Burrow's default of ${DefaultMinimumPasswordLength} applies to new passwords`);
  else plan.notes.push(`${where}: minimum password length ${minimum} is out of range; ${DefaultMinimumPasswordLength} is used`);

  const defaults = obj(source.defaults);
  const defaultsPerm = mapPerm(defaults.perm);
  if (defaultsPerm.admin) {
    plan.notes.push(`${where}: new users cannot be admins by default in Burrow; admin left out of the default permissions`);
    defaultsPerm.admin = false;
  }
  if (defaultsPerm.share && !defaultsPerm.download) {
    plan.notes.push(`${where}: sharing needs the download permission in Burrow; share left out of the default permissions`);
    defaultsPerm.share = false;
  }
  settings.defaults = {
    scope: str(defaults.scope, '.') || '.',
    locale: str(defaults.locale) || 'en',
    viewMode: mapViewMode(defaults.viewmode, 'mosaic', `${where} (defaults)`, plan),
    singleClick: bool(defaults.singleclick),
    redirectAfterCopyMove: bool(defaults.redirectaftercopymove, true),
    sorting: { by: SORT_FIELDS.includes(str(obj(defaults.sorting).by)) ? str(obj(defaults.sorting).by) : '', asc: bool(obj(defaults.sorting).asc) },
    perm: defaultsPerm,
    commands: mapCommands(defaults.commands, `${where} (defaults)`, plan),
    hideDotfiles: bool(defaults.hidedotfiles),
    dateFormat: bool(defaults.dateformat),
    aceEditorTheme: str(defaults.aceeditortheme).slice(0, 64),
  };

  const method = str(source.authmethod) || 'json';
  if ((AuthMethods as readonly string[]).includes(method)) settings.authMethod = method;
  else plan.notes.push(`${where}: authentication method ${JSON.stringify(method)} does not exist in Burrow; json (username and password) is used`);
  mapAuther(method, auther, plan);

  const branding = obj(source.branding);
  const theme = str(branding.theme);
  if (!['', 'light', 'dark'].includes(theme)) plan.notes.push(`${where}: branding theme ${JSON.stringify(theme)} is unknown; the default theme is used`);
  settings.branding = {
    name: str(branding.name),
    disableExternal: bool(branding.disableexternal),
    disableUsedPercentage: bool(branding.disableusedpercentage),
    files: str(branding.files),
    theme: ['', 'light', 'dark'].includes(theme) ? theme : '',
    color: str(branding.color),
  };

  const tus = obj(source.tus);
  const chunkSize = wholeNumber(tus.chunksize);
  const retryCount = wholeNumber(tus.retrycount);
  if (chunkSize !== undefined && chunkSize >= 0 && retryCount !== undefined && retryCount >= 0) settings.tus = { chunkSize, retryCount };

  for (const [event, lines] of Object.entries(obj(source.commands))) {
    const commands = list(lines).map((line) => str(line).trim()).filter(Boolean);
    if ((HookEvents as readonly string[]).includes(event)) settings.commands[event] = commands;
    else if (commands.length) plan.notes.push(`${where}: hook event ${JSON.stringify(event)} does not exist in Burrow; its commands are left out`);
  }
  settings.shell = list(source.shell).map((word) => str(word).trim()).filter(Boolean);
  settings.rules = mapRules(source.rules, `${where} (global rules)`, plan);
  return settings;
}

/** filebrowser keeps proxy and reCAPTCHA settings with the auth method; Burrow takes them from its configuration. */
function mapAuther(method: string, auther: Fields | undefined, plan: ImportPlan): void {
  if (!auther) return;
  if (method === 'proxy') {
    const header = str(auther.header);
    if (header) {
      plan.server.push({ key: 'proxyHeader', flag: '--proxy-header', value: header, from: 'auther.header' });
      plan.notes.push('proxy authentication: Burrow only trusts the header from the addresses in BURROW_TRUSTED_PROXIES (--trusted-proxies); set them to your proxy');
    }
  }
  const recaptcha = obj(auther.recaptcha);
  if (str(recaptcha.key) || str(recaptcha.secret)) {
    if (str(recaptcha.host)) plan.server.push({ key: 'recaptchaHost', value: str(recaptcha.host), from: 'auther.recaptcha.host' });
    plan.server.push({ key: 'recaptchaKey', value: str(recaptcha.key), from: 'auther.recaptcha.key' });
    plan.server.push({ key: 'recaptchaSecret', value: str(recaptcha.secret), from: 'auther.recaptcha.secret' });
  }
  if (method === 'hook' && str(auther.command)) plan.notes.push(`auther: the hook authentication command ${JSON.stringify(str(auther.command))} has no equivalent in Burrow`);
}

/** The server part of filebrowser's configuration, as the flags and environment Burrow reads. */
function mapServer(server: Fields, settings: Fields | undefined, plan: ImportPlan): void {
  const add = (key: string, flag: string | undefined, value: string, from: string) => plan.server.push({ key, flag, value, from });
  const root = str(server.root);
  if (root) add('root', '--root', root, 'server.root');
  const baseURL = str(server.baseurl).replace(/\/+$/, '');
  if (baseURL) add('baseURL', '--base-url', baseURL, 'server.baseURL');
  const address = str(server.address);
  // filebrowser listens on every interface when no address is set; Burrow needs one named.
  add('address', '--address', address || '0.0.0.0', 'server.address');
  const port = str(server.port);
  if (port) add('port', '--port', port, 'server.port');
  add('enableThumbs', '--enable-thumbs', String(bool(server.enablethumbnails)), 'server.enableThumbnails');
  add('resizePreview', '--resize-preview', String(bool(server.resizepreview)), 'server.resizePreview');
  add('enableExec', '--enable-exec', String(bool(server.enableexec)), 'server.enableExec');
  const lifetime = str(server.tokenexpirationtime);
  if (lifetime) {
    // Go durations may carry units Burrow does not read (`2h0m0s` reads fine; `1.5h`, `300ms` may not).
    const seconds = parseDuration(lifetime);
    if (seconds !== undefined && seconds > 0) add('tokenExpiration', '--token-expiration', `${seconds}s`, 'server.tokenExpirationTime');
    else plan.notes.push(`server: token lifetime ${JSON.stringify(lifetime)} cannot be read; Burrow's default of 2h applies`);
  }
  if (str(server.socket)) plan.notes.push(`server: listening on the Unix socket ${JSON.stringify(str(server.socket))} is not supported; Burrow listens on an address and port`);
  if (str(server.tlskey) || str(server.tlscert)) plan.notes.push('server: Burrow does not serve TLS itself; put a reverse proxy with the certificate in front of it');
  if (str(server.authhook)) plan.notes.push(`server: the auth hook ${JSON.stringify(str(server.authhook))} has no equivalent in Burrow`);
  if (bool(server.typedetectionbyheader)) plan.notes.push('server: type detection by header has no setting in Burrow (it always reads the first bytes of a file)');
  const log = str(server.log);
  if (log && log !== 'stdout') plan.notes.push(`server: logging to ${JSON.stringify(log)} is not supported; Burrow logs to standard output`);
  for (const [name, key] of [['filemode', 'fileMode'], ['dirmode', 'dirMode']] as const) {
    const mode = wholeNumber(settings?.[name]);
    if (mode !== undefined && mode > 0) add(key, undefined, '0' + (mode & 0o7777).toString(8), `settings.${key}`);
  }
}

function mapShare(link: Fields, plan: ImportPlan, nowSeconds: number): ImportedShare | undefined {
  const hash = str(link.hash);
  const where = `share link ${JSON.stringify(hash)}`;
  if (!looksLikeShareHash(hash)) {
    plan.notes.push(`${where}: not a hash Burrow can serve; left out`);
    return undefined;
  }
  const userId = wholeNumber(link.userid);
  const expire = wholeNumber(link.expire) ?? 0;
  if (expire !== 0 && expire <= nowSeconds) {
    plan.notes.push(`${where}: expired on ${new Date(expire * 1000).toISOString()}; left out`);
    return undefined;
  }
  const passwordHash = str(link.password_hash);
  if (passwordHash && !BCRYPT.test(passwordHash)) {
    plan.problems.push(`${where}: its password is not stored as a bcrypt hash, so the link cannot be protected as it was`);
    return undefined;
  }
  const linkPath = str(link.path);
  if (!linkPath.startsWith('/')) {
    plan.notes.push(`${where}: path ${JSON.stringify(linkPath)} is not absolute; left out`);
    return undefined;
  }
  return { hash, path: linkPath, userId: userId ?? -1, expire: Math.max(0, expire), passwordHash, token: str(link.token) };
}

/** Turns what was read from filebrowser into Burrow records, noting everything that changes on the way. */
export function planImport(data: FilebrowserData, options: { now?: number } = {}): ImportPlan {
  const plan: ImportPlan = { users: [], shares: [], server: [], notes: [], problems: [] };
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (data.settings) plan.settings = mapSettings(data.settings, data.auther, plan);
  if (data.server) mapServer(data.server, data.settings, plan);
  const defaults = (plan.settings ?? freshSettings()).defaults;
  const seenNames = new Map<string, number>();
  const seenIds = new Set<number>();
  for (const source of data.users) {
    const user = mapUser(source, defaults, plan);
    if (!user) continue;
    if (seenIds.has(user.id)) plan.problems.push(`user ${JSON.stringify(user.record.username)}: id ${user.id} is used twice`);
    if (seenNames.has(user.record.username)) plan.problems.push(`user ${JSON.stringify(user.record.username)}: the name is used twice`);
    seenIds.add(user.id);
    seenNames.set(user.record.username, user.id);
    plan.users.push(user);
  }
  const hashes = new Set<string>();
  for (const link of data.links) {
    const share = mapShare(link, plan, nowSeconds);
    if (!share) continue;
    if (hashes.has(share.hash)) {
      plan.problems.push(`share link ${JSON.stringify(share.hash)}: the hash is used twice`);
      continue;
    }
    hashes.add(share.hash);
    if (!seenIds.has(share.userId)) {
      plan.notes.push(`share link ${JSON.stringify(share.hash)}: its owner (user id ${share.userId}) is not among the imported users; left out`);
      continue;
    }
    plan.shares.push(share);
  }
  return plan;
}

/** The configuration lines to print for the server part, as environment and as flags. */
export function describeServer(plan: ImportPlan): { env: string[]; flags: string[] } {
  const quote = (value: string) => (/^[A-Za-z0-9_./:@,+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
  return {
    env: plan.server.map((setting) => `${envName(setting.key)}=${quote(setting.value)}`),
    flags: plan.server.filter((setting) => setting.flag).map((setting) => `${setting.flag} ${quote(setting.value)}`),
  };
}
