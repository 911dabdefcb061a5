import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Server configuration, validated once at start. */
export type Config = {
  root: string;
  address: string;
  port: number;
  database: string;
  baseURL: string;
  /** Token lifetime in seconds. */
  tokenExpiration: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where the built web app lives (index.html and assets). */
  webDist: string;
  /** Folder for thumbnails and upload staging. Defaults to `<database dir>/.burrow-cache`. */
  cacheDir: string;
  enableThumbs: boolean;
  resizePreview: boolean;
  enableExec: boolean;
  followExternalSymlinks: boolean;
  fileMode: number;
  dirMode: number;
  /** Abandoned resumable uploads expire after this many seconds. */
  uploadExpiry: number;
  /** Addresses whose proxy authentication header and `X-Forwarded-For` are trusted. */
  trustedProxies: string[];
  /**
   * `Host` header values the server answers (DNS rebinding defence): names or addresses, with an
   * optional `:port`, `*.example.com` for sub-domains, `*` for any. Default: the listen address,
   * `localhost`, `127.0.0.1` and `[::1]`; any host when listening on every interface.
   */
  allowedHosts: string[];
  /** Header naming the user under proxy authentication. */
  proxyHeader: string;
  /** reCAPTCHA: when key and secret are both set, login requires a verified response. */
  recaptchaHost: string;
  recaptchaKey: string;
  recaptchaSecret: string;
  /** The external chat the login page links to (empty hides the button). */
  externalChatURL: string;
  /** Where the sidebar's help link points (empty hides it). */
  helpURL: string;
  /** The issue page the error toasts' report button opens (empty hides the button). */
  issuesURL: string;
  /** Largest upload accepted, in bytes (tus Upload-Length and plain bodies alike). */
  maxUploadSize: number;
  /** Full rescans of the search index for changes made outside Burrow, in seconds (0: never). */
  searchRescanInterval: number;
  /** A command runner process is killed after this many seconds. */
  commandTimeLimit: number;
  /** A command's output is cut (and the process killed) beyond this many bytes. */
  commandOutputLimit: number;
  /** Commands running at once, server-wide. */
  maxRunningCommands: number;
  /** The bubblewrap binary that sandboxes commands and hooks. */
  bwrap: string;
  /**
   * `uid:gid` a server running as root starts commands and hooks as; empty picks the owner of
   * the scope folder, or 65534:65534 (nobody) when root owns it.
   */
  commandUser: string;
  /** Serve Prometheus metrics at `/metrics`. */
  metrics: boolean;
  /** A bearer token that may read `/metrics` (empty: none). */
  metricsToken: string;
  /** Addresses or CIDR blocks that may read `/metrics` without a token (default: loopback when no token is set). */
  metricsAllowedAddresses: string[];
  /** Answer WebDAV PROPFIND with `Depth: infinity` (or no Depth) instead of refusing it with 403. */
  webdavDepthInfinity: boolean;
  /**
   * Where audit log entries are also written as JSON lines: '' (nowhere, the database only),
   * `stdout`, or a file path (appended).
   */
  auditLog: string;
  /**
   * Single sign-on settings fixed here rather than in the settings screen (`oidcIssuer`,
   * `oidcClientSecret`…); a field left out stays editable there.
   */
  oidc: OidcConfig;
  /** Admin password used on first run; otherwise a random one is printed once. */
  adminPassword?: string;
};

/** Single sign-on fields given in the configuration; see the oidc module. */
export type OidcConfig = Partial<{
  enabled: boolean;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  adminGroup: string;
  buttonLabel: string;
  autoCreate: boolean;
  passwordLogin: boolean;
  breakGlassAdmin: string;
}>;

/** The `oidc*` keys of a source, each under its field name. */
function oidcConfig(get: (key: ConfigKey) => unknown): OidcConfig {
  const result: Record<string, string | boolean> = {};
  for (const key of ConfigKeys) {
    if (!key.startsWith('oidc') || get(key) === undefined) continue;
    const field = key[4]!.toLowerCase() + key.slice(5);
    const isFlag = key === 'oidcEnabled' || key === 'oidcAutoCreate' || key === 'oidcPasswordLogin';
    result[field] = isFlag ? asBool(key, get(key)) : asString(key, get(key)).trim();
  }
  return result as OidcConfig;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Source = Record<string, unknown>;

const DEFAULT_HELP_URL = 'https://github.com/burrow-files/burrow#readme';
const DEFAULT_ISSUES_URL = 'https://github.com/burrow-files/burrow/issues/new';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Keys accepted from flags, environment (BURROW_<UPPER_SNAKE>) and the config file. */
const ConfigKeys = [
  'root',
  'address',
  'port',
  'database',
  'baseURL',
  'tokenExpiration',
  'logLevel',
  'webDist',
  'cacheDir',
  'enableThumbs',
  'resizePreview',
  'enableExec',
  'followExternalSymlinks',
  'fileMode',
  'dirMode',
  'uploadExpiry',
  'trustedProxies',
  'allowedHosts',
  'proxyHeader',
  'recaptchaHost',
  'recaptchaKey',
  'recaptchaSecret',
  'externalChatURL',
  'helpURL',
  'issuesURL',
  'maxUploadSize',
  'searchRescanInterval',
  'commandTimeLimit',
  'commandOutputLimit',
  'maxRunningCommands',
  'bwrap',
  'commandUser',
  'metrics',
  'metricsToken',
  'metricsAllowedAddresses',
  'webdavDepthInfinity',
  'auditLog',
  'oidcEnabled',
  'oidcIssuer',
  'oidcClientId',
  'oidcClientSecret',
  'oidcScopes',
  'oidcUsernameClaim',
  'oidcGroupsClaim',
  'oidcAdminGroup',
  'oidcButtonLabel',
  'oidcAutoCreate',
  'oidcPasswordLogin',
  'oidcBreakGlassAdmin',
  'adminPassword',
] as const;
type ConfigKey = (typeof ConfigKeys)[number];

export function envName(key: string): string {
  return 'BURROW_' + key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Parses a duration such as `90m`, `2h`, `1h30m`, `45s` or a plain number of seconds. */
export function parseDuration(value: string): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let match: RegExpExecArray | null;
  while ((match = re.exec(trimmed)) !== null) {
    const amount = Number(match[1]);
    const unit = match[2];
    const factor = unit === 'ms' ? 0.001 : unit === 's' ? 1 : unit === 'm' ? 60 : unit === 'h' ? 3600 : 86400;
    total += amount * factor;
    matched += match[0].length;
  }
  if (matched !== trimmed.length || matched === 0) return undefined;
  return Math.round(total);
}

function asBool(key: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(lower)) return false;
  }
  throw new ConfigError(`${key}: expected true or false, got ${JSON.stringify(value)}`);
}

function asInt(key: string, value: unknown, min: number, max: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(`${key}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return number;
}

function asMode(key: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0o7777) return value;
  if (typeof value === 'string' && /^0?[0-7]{3,4}$/.test(value.trim())) return parseInt(value.trim(), 8);
  throw new ConfigError(`${key}: expected an octal file mode such as 0640, got ${JSON.stringify(value)}`);
}

function asDuration(key: string, value: unknown): number {
  if (typeof value === 'number' && value > 0) return Math.round(value);
  if (typeof value === 'string') {
    const seconds = parseDuration(value);
    if (seconds !== undefined && seconds > 0) return seconds;
  }
  throw new ConfigError(`${key}: expected a duration such as 2h or 90m, got ${JSON.stringify(value)}`);
}

/** Parses a size such as `512`, `10MB`, `1.5G` or `2 TiB`: bytes, in multiples of 1024. */
export function parseSize(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
  if (!match) return undefined;
  const power = ['', 'k', 'm', 'g', 't'].indexOf(match[2]!.toLowerCase());
  return Math.floor(Number(match[1]) * 1024 ** power);
}

function asSize(key: string, value: unknown): number {
  const bytes = typeof value === 'number' ? value : typeof value === 'string' ? parseSize(value) : undefined;
  if (bytes === undefined || !Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new ConfigError(`${key}: expected a size such as 10GB or 512MB, got ${JSON.stringify(value)}`);
  }
  return bytes;
}

/** Like asDuration, and 0 (or "off") turns the thing off. */
function asOptionalDuration(key: string, value: unknown): number {
  if (value === 0 || (typeof value === 'string' && ['0', 'off', 'never'].includes(value.trim().toLowerCase()))) return 0;
  return asDuration(key, value);
}

function asString(key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new ConfigError(`${key}: expected text, got ${JSON.stringify(value)}`);
}

function asList(key: string, value: unknown): string[] {
  if (Array.isArray(value)) return value.map((item) => asString(key, item).trim()).filter(Boolean);
  return asString(key, value)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `uid:gid` (or `uid`, meaning the same number for both), never root; empty for automatic. */
function asCommandUser(value: unknown): string {
  const text = asString('commandUser', value).trim();
  if (text === '') return '';
  const match = /^(\d+)(?::(\d+))?$/.exec(text);
  if (!match) throw new ConfigError(`commandUser: expected numeric ids such as 1000:1000, got ${JSON.stringify(value)}`);
  const uid = Number(match[1]);
  const gid = Number(match[2] ?? match[1]);
  if (uid === 0 || gid === 0) throw new ConfigError('commandUser: commands never run as root (uid or gid 0)');
  if (uid > 0xfffffffe || gid > 0xfffffffe) throw new ConfigError(`commandUser: ids out of range, got ${JSON.stringify(value)}`);
  return `${uid}:${gid}`;
}

/** Listen addresses meaning every interface: users then reach the server by any name. */
const ANY_INTERFACE = new Set(['0.0.0.0', '::', '[::]', '::0']);

/** The allowed `Host` values: the list given, else the default for the listen address. */
function allowedHostsFor(value: unknown, address: string): string[] {
  if (value === undefined) {
    if (ANY_INTERFACE.has(address)) return ['*'];
    const listen = address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
    return [...new Set([listen.toLowerCase(), 'localhost', '127.0.0.1', '[::1]'])];
  }
  const hosts = asList('allowedHosts', value).map((host) => host.toLowerCase());
  for (const host of hosts) {
    const valid = host === '*' || /^(\*\.)?[a-z0-9._-]+(:\d{1,5})?$/.test(host) || /^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host);
    if (!valid) throw new ConfigError(`allowedHosts: expected host names such as files.example.com, got ${JSON.stringify(host)}`);
  }
  if (hosts.length === 0) throw new ConfigError('allowedHosts: must not be empty (use * to accept any host)');
  return hosts;
}

/** The audit log's JSON lines target: '' (off), 'stdout', or an absolute file path. */
function auditLogTarget(value: unknown, cwd: string): string {
  if (value === undefined) return '';
  const text = asString('auditLog', value).trim();
  if (text === '' || text === 'stdout') return text;
  return path.resolve(cwd, text);
}

/** Normalises a base URL: "" or "/prefix" without a trailing slash. */
export function normaliseBaseURL(value: string): string {
  let base = value.trim();
  if (base === '' || base === '/') return '';
  if (!base.startsWith('/')) base = '/' + base;
  base = base.replace(/\/+$/, '');
  const valid = /^(\/[A-Za-z0-9._~-]+)+$/.test(base) && base.split('/').every((segment) => segment !== '.' && segment !== '..');
  if (!valid) throw new ConfigError(`baseURL: invalid prefix ${JSON.stringify(value)}`);
  return base;
}

function defaultWebDist(): string {
  // fileURLToPath, not URL.pathname: the latter keeps %20 and friends in installation paths.
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
}

/**
 * Builds the configuration from (lowest to highest precedence) defaults, a JSON config file,
 * the environment and command-line flags. Throws ConfigError with a clear message on any
 * invalid value.
 */
export function loadConfig(options: { flags?: Source; env?: NodeJS.ProcessEnv; configFile?: string; cwd?: string } = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const merged: Source = {};
  // Where each value came from, so an error can point at the place to fix it.
  const origins: Record<string, string> = {};
  const configFile = options.configFile ?? (env.BURROW_CONFIG as string | undefined);
  if (configFile) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(path.resolve(cwd, configFile), 'utf8'));
    } catch (error) {
      throw new ConfigError(`config file ${configFile}: ${(error as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`config file ${configFile}: expected a JSON object`);
    for (const [key, value] of Object.entries(parsed as Source)) {
      if (!(ConfigKeys as readonly string[]).includes(key)) throw new ConfigError(`config file ${configFile}: unknown key ${key}`);
      // JSON has no octal literals: 640 would silently mean 0o1200. Modes must be written as text.
      if ((key === 'fileMode' || key === 'dirMode') && typeof value === 'number') {
        throw new ConfigError(`config file ${configFile}: ${key}: write the mode as octal text such as "0640", got ${value}`);
      }
      merged[key] = value;
      origins[key] = `config file ${configFile}`;
    }
  }
  for (const key of ConfigKeys) {
    const value = env[envName(key)];
    if (value !== undefined) {
      merged[key] = value;
      origins[key] = `environment variable ${envName(key)}`;
    }
  }
  for (const [key, value] of Object.entries(options.flags ?? {})) {
    if (value !== undefined) {
      merged[key] = value;
      origins[key] = 'command line';
    }
  }
  try {
    return resolveConfig(merged, cwd);
  } catch (error) {
    const key = error instanceof ConfigError ? error.message.split(':')[0]! : '';
    if (origins[key]) throw new ConfigError(`${(error as Error).message} (from the ${origins[key]})`);
    throw error;
  }
}

export function resolveConfig(source: Source, cwd = process.cwd()): Config {
  const get = (key: ConfigKey) => source[key];
  const database = path.resolve(cwd, get('database') !== undefined ? asString('database', get('database')) : './burrow.db');
  const logLevel = get('logLevel') !== undefined ? asString('logLevel', get('logLevel')) : 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`logLevel: expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  const address = get('address') !== undefined ? asString('address', get('address')).trim() : '127.0.0.1';
  if (!address) throw new ConfigError('address: must not be empty');
  const config: Config = {
    root: path.resolve(cwd, get('root') !== undefined ? asString('root', get('root')) : './data'),
    address,
    port: get('port') !== undefined ? asInt('port', get('port'), 0, 65535) : 8080,
    database,
    baseURL: normaliseBaseURL(get('baseURL') !== undefined ? asString('baseURL', get('baseURL')) : ''),
    tokenExpiration: get('tokenExpiration') !== undefined ? asDuration('tokenExpiration', get('tokenExpiration')) : 7200,
    logLevel: logLevel as Config['logLevel'],
    webDist: get('webDist') !== undefined ? path.resolve(cwd, asString('webDist', get('webDist'))) : defaultWebDist(),
    cacheDir:
      get('cacheDir') !== undefined
        ? path.resolve(cwd, asString('cacheDir', get('cacheDir')))
        : path.join(path.dirname(database), '.burrow-cache'),
    enableThumbs: get('enableThumbs') !== undefined ? asBool('enableThumbs', get('enableThumbs')) : true,
    resizePreview: get('resizePreview') !== undefined ? asBool('resizePreview', get('resizePreview')) : true,
    enableExec: get('enableExec') !== undefined ? asBool('enableExec', get('enableExec')) : false,
    followExternalSymlinks:
      get('followExternalSymlinks') !== undefined ? asBool('followExternalSymlinks', get('followExternalSymlinks')) : false,
    fileMode: get('fileMode') !== undefined ? asMode('fileMode', get('fileMode')) : 0o640,
    dirMode: get('dirMode') !== undefined ? asMode('dirMode', get('dirMode')) : 0o750,
    uploadExpiry: get('uploadExpiry') !== undefined ? asDuration('uploadExpiry', get('uploadExpiry')) : 24 * 3600,
    trustedProxies: get('trustedProxies') !== undefined ? asList('trustedProxies', get('trustedProxies')) : [],
    allowedHosts: allowedHostsFor(get('allowedHosts'), address),
    proxyHeader: get('proxyHeader') !== undefined ? asString('proxyHeader', get('proxyHeader')).trim() : 'X-Forwarded-User',
    recaptchaHost:
      get('recaptchaHost') !== undefined ? asString('recaptchaHost', get('recaptchaHost')).replace(/\/+$/, '') : 'https://www.google.com',
    recaptchaKey: get('recaptchaKey') !== undefined ? asString('recaptchaKey', get('recaptchaKey')) : '',
    recaptchaSecret: get('recaptchaSecret') !== undefined ? asString('recaptchaSecret', get('recaptchaSecret')) : '',
    externalChatURL: get('externalChatURL') !== undefined ? asString('externalChatURL', get('externalChatURL')) : '',
    helpURL: get('helpURL') !== undefined ? asString('helpURL', get('helpURL')).trim() : DEFAULT_HELP_URL,
    issuesURL: get('issuesURL') !== undefined ? asString('issuesURL', get('issuesURL')).trim() : DEFAULT_ISSUES_URL,
    maxUploadSize: get('maxUploadSize') !== undefined ? asSize('maxUploadSize', get('maxUploadSize')) : 1024 ** 4,
    searchRescanInterval:
      get('searchRescanInterval') !== undefined ? asOptionalDuration('searchRescanInterval', get('searchRescanInterval')) : 600,
    commandTimeLimit: get('commandTimeLimit') !== undefined ? asDuration('commandTimeLimit', get('commandTimeLimit')) : 600,
    commandOutputLimit: get('commandOutputLimit') !== undefined ? asSize('commandOutputLimit', get('commandOutputLimit')) : 10 * 1024 ** 2,
    maxRunningCommands: get('maxRunningCommands') !== undefined ? asInt('maxRunningCommands', get('maxRunningCommands'), 1, 1024) : 16,
    bwrap: get('bwrap') !== undefined ? path.resolve(cwd, asString('bwrap', get('bwrap')).trim()) : '/usr/bin/bwrap',
    commandUser: get('commandUser') !== undefined ? asCommandUser(get('commandUser')) : '',
    metrics: get('metrics') !== undefined ? asBool('metrics', get('metrics')) : false,
    metricsToken: get('metricsToken') !== undefined ? asString('metricsToken', get('metricsToken')).trim() : '',
    metricsAllowedAddresses: get('metricsAllowedAddresses') !== undefined ? asList('metricsAllowedAddresses', get('metricsAllowedAddresses')) : [],
    webdavDepthInfinity: get('webdavDepthInfinity') !== undefined ? asBool('webdavDepthInfinity', get('webdavDepthInfinity')) : false,
    auditLog: auditLogTarget(get('auditLog'), cwd),
    adminPassword: get('adminPassword') !== undefined ? asString('adminPassword', get('adminPassword')) : undefined,
    oidc: oidcConfig(get),
  };
  if (!config.proxyHeader || !/^[A-Za-z0-9-]+$/.test(config.proxyHeader)) throw new ConfigError('proxyHeader: expected a header name');
  if (get('bwrap') !== undefined && asString('bwrap', get('bwrap')).trim() === '') throw new ConfigError('bwrap: expected the path of the bwrap binary');
  for (const key of ['recaptchaHost', 'externalChatURL', 'helpURL', 'issuesURL'] as const) {
    const url = config[key];
    if (url && !/^https?:\/\/[^\s]+$/.test(url)) throw new ConfigError(`${key}: invalid URL ${JSON.stringify(url)}`);
  }
  return config;
}
