import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, envName, loadConfig, normaliseBaseURL, parseDuration, parseSize, resolveConfig } from './config.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-config-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeConfigFile(content: unknown, name = 'burrow.json'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** The ConfigError message a load produces, or fails when it loads. */
function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('gives a usable configuration with nothing set', () => {
    const config = loadConfig({ env: {}, cwd: dir });
    expect(config).toMatchObject({
      root: path.join(dir, 'data'),
      address: '127.0.0.1',
      port: 8080,
      database: path.join(dir, 'burrow.db'),
      baseURL: '',
      tokenExpiration: 7200,
      logLevel: 'info',
      cacheDir: path.join(dir, '.burrow-cache'),
      enableThumbs: true,
      resizePreview: true,
      enableExec: false,
      followExternalSymlinks: false,
      fileMode: 0o640,
      dirMode: 0o750,
      trustedProxies: [],
      proxyHeader: 'X-Forwarded-User',
      recaptchaHost: 'https://www.google.com',
    });
    expect(config.adminPassword).toBeUndefined();
    // The built web app sits beside the server package, found from this module's own location.
    expect(config.webDist).toBe(fileURLToPath(new URL('../../web/dist', import.meta.url)));
  });
});

describe('precedence: flags > environment > config file > defaults', () => {
  it('layers every source in order', () => {
    const configFile = writeConfigFile({ port: 7000, logLevel: 'warn', root: 'from-file', baseURL: '/file', enableExec: true });
    const env = { BURROW_PORT: '7100', BURROW_LOG_LEVEL: 'error', BURROW_BASE_URL: '/env' };
    const config = loadConfig({ env, configFile, cwd: dir, flags: { port: '7200' } });
    expect(config.port).toBe(7200);
    expect(config.logLevel).toBe('error');
    expect(config.baseURL).toBe('/env');
    expect(config.root).toBe(path.join(dir, 'from-file'));
    expect(config.enableExec).toBe(true);
    expect(config.tokenExpiration).toBe(7200);
  });

  it('finds the config file through BURROW_CONFIG, relative to the working directory', () => {
    writeConfigFile({ address: '0.0.0.0' }, 'server.json');
    expect(loadConfig({ env: { BURROW_CONFIG: 'server.json' }, cwd: dir }).address).toBe('0.0.0.0');
  });

  it('ignores undefined flags so lower layers still apply', () => {
    expect(loadConfig({ env: { BURROW_PORT: '9000' }, cwd: dir, flags: { port: undefined } }).port).toBe(9000);
  });

  it('names environment variables BURROW_<UPPER_SNAKE>', () => {
    expect(envName('port')).toBe('BURROW_PORT');
    expect(envName('baseURL')).toBe('BURROW_BASE_URL');
    expect(envName('followExternalSymlinks')).toBe('BURROW_FOLLOW_EXTERNAL_SYMLINKS');
    expect(envName('adminPassword')).toBe('BURROW_ADMIN_PASSWORD');
    const env = { BURROW_FOLLOW_EXTERNAL_SYMLINKS: 'yes', BURROW_TRUSTED_PROXIES: '10.0.0.1, 10.0.0.2,', BURROW_ADMIN_PASSWORD: 'from-env-1234' };
    const config = loadConfig({ env, cwd: dir });
    expect(config.followExternalSymlinks).toBe(true);
    expect(config.trustedProxies).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(config.adminPassword).toBe('from-env-1234');
  });

  it('resolves paths against the working directory and puts the cache beside the database', () => {
    const config = loadConfig({ env: {}, cwd: dir, flags: { database: 'state/burrow.db', root: '/srv/files' } });
    expect(config.database).toBe(path.join(dir, 'state', 'burrow.db'));
    expect(config.cacheDir).toBe(path.join(dir, 'state', '.burrow-cache'));
    expect(config.root).toBe('/srv/files');
  });
});

describe('values', () => {
  it('parses durations', () => {
    expect(parseDuration('90m')).toBe(5400);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('45s')).toBe(45);
    expect(parseDuration('1d')).toBe(86400);
    expect(parseDuration('1500ms')).toBe(2);
    expect(parseDuration('600')).toBe(600);
    expect(parseDuration(' 2h ')).toBe(7200);
    for (const bad of ['', 'h', '2x', '2h 30m', '-5m', '1h-', 'soon']) expect(parseDuration(bad), bad).toBeUndefined();
    expect(loadConfig({ env: { BURROW_TOKEN_EXPIRATION: '90m' }, cwd: dir }).tokenExpiration).toBe(5400);
  });

  it('reads booleans in the usual spellings', () => {
    for (const yes of ['true', '1', 'yes', 'on', 'TRUE', true]) expect(resolveConfig({ enableExec: yes }).enableExec, String(yes)).toBe(true);
    for (const no of ['false', '0', 'no', 'off', '', false]) expect(resolveConfig({ enableExec: no }).enableExec, String(no)).toBe(false);
  });

  it('reads file modes as octal text', () => {
    expect(resolveConfig({ fileMode: '0600', dirMode: '755' })).toMatchObject({ fileMode: 0o600, dirMode: 0o755 });
  });

  it('reads sizes with units and durations that can be turned off', () => {
    expect(parseSize('512')).toBe(512);
    expect(parseSize('10MB')).toBe(10 * 1024 ** 2);
    expect(parseSize('1.5g')).toBe(1.5 * 1024 ** 3);
    expect(parseSize('2 TiB')).toBe(2 * 1024 ** 4);
    expect(parseSize('1 KB')).toBe(1024);
    expect(parseSize('ten')).toBeUndefined();
    expect(parseSize('-5MB')).toBeUndefined();
    expect(resolveConfig({ maxUploadSize: '5GB', commandOutputLimit: '1MB', commandTimeLimit: '30s', searchRescanInterval: 'off', maxRunningCommands: '4' }, dir)).toMatchObject({
      maxUploadSize: 5 * 1024 ** 3,
      commandOutputLimit: 1024 ** 2,
      commandTimeLimit: 30,
      searchRescanInterval: 0,
      maxRunningCommands: 4,
    });
    expect(resolveConfig({}, dir)).toMatchObject({ maxUploadSize: 1024 ** 4, searchRescanInterval: 600, commandTimeLimit: 600, maxRunningCommands: 16 });
  });

  it('takes the bubblewrap binary and the user commands run as, never root', () => {
    expect(resolveConfig({}, dir)).toMatchObject({ bwrap: '/usr/bin/bwrap', commandUser: '' });
    expect(loadConfig({ env: { BURROW_BWRAP: 'bin/bwrap', BURROW_COMMAND_USER: ' 1000:1001 ' }, cwd: dir })).toMatchObject({ bwrap: path.join(dir, 'bin/bwrap'), commandUser: '1000:1001' });
    expect(resolveConfig({ commandUser: '1000' }, dir).commandUser).toBe('1000:1000');
    for (const value of ['0', '0:1000', '1000:0', 'nobody', '1000:', '-1', '1:2:3']) {
      expect(configError(() => resolveConfig({ commandUser: value }, dir)), value).toMatch(/^commandUser: /);
    }
    expect(configError(() => resolveConfig({ bwrap: ' ' }, dir))).toMatch(/^bwrap: /);
  });

  it('keeps a PostgreSQL URL as given, with its pool size, and the cache in the working folder', () => {
    const config = resolveConfig({ database: 'postgresql://burrow:pw@db.example:5433/burrow?sslmode=require', databasePoolSize: '25' }, dir);
    expect(config).toMatchObject({ database: 'postgresql://burrow:pw@db.example:5433/burrow?sslmode=require', databasePoolSize: 25, cacheDir: path.join(dir, '.burrow-cache') });
    expect(resolveConfig({}, dir).databasePoolSize).toBe(10);
  });

  it('takes help and issue addresses, or empty to hide them', () => {
    expect(resolveConfig({ helpURL: 'https://docs.example.org/', issuesURL: '' }, dir)).toMatchObject({ helpURL: 'https://docs.example.org/', issuesURL: '' });
    expect(resolveConfig({}, dir).helpURL).toMatch(/^https:\/\//);
  });

  it('normalises base URLs', () => {
    expect(normaliseBaseURL('')).toBe('');
    expect(normaliseBaseURL('/')).toBe('');
    expect(normaliseBaseURL('burrow')).toBe('/burrow');
    expect(normaliseBaseURL('/burrow/')).toBe('/burrow');
    expect(normaliseBaseURL('/apps/burrow')).toBe('/apps/burrow');
  });
});

describe('invalid values give a ConfigError with a clear message', () => {
  const cases: Array<[label: string, source: Record<string, unknown>, message: RegExp]> = [
    ['port text', { port: 'eighty' }, /^port: expected a whole number from 0 to 65535, got "eighty"$/],
    ['port range', { port: '70000' }, /^port: .*70000/],
    ['port negative', { port: -1 }, /^port: /],
    ['port fraction', { port: '80.5' }, /^port: /],
    ['log level', { logLevel: 'loud' }, /^logLevel: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"$/],
    ['duration', { tokenExpiration: 'forever' }, /^tokenExpiration: expected a duration such as 2h or 90m, got "forever"$/],
    ['zero duration', { tokenExpiration: '0' }, /^tokenExpiration: /],
    ['upload expiry', { uploadExpiry: '-1h' }, /^uploadExpiry: /],
    ['mode', { fileMode: '0999' }, /^fileMode: expected an octal file mode such as 0640, got "0999"$/],
    ['mode word', { dirMode: 'rwx' }, /^dirMode: /],
    ['base URL', { baseURL: '/bur row' }, /^baseURL: invalid prefix "\/bur row"$/],
    ['base URL with scheme', { baseURL: 'https://example.com/x' }, /^baseURL: /],
    ['base URL traversal', { baseURL: '/a/../b' }, /^baseURL: /],
    ['boolean', { enableExec: 'maybe' }, /^enableExec: expected true or false, got "maybe"$/],
    ['empty address', { address: '  ' }, /^address: must not be empty$/],
    ['proxy header', { proxyHeader: 'X Forwarded' }, /^proxyHeader: /],
    ['recaptcha host', { recaptchaHost: 'ftp://captcha' }, /recaptchaHost: invalid URL "ftp:\/\/captcha"/],
    ['chat URL', { externalChatURL: 'javascript:alert(1)' }, /externalChatURL: invalid URL/],
    ['root type', { root: ['a'] }, /^root: expected text/],
    ['upload size', { maxUploadSize: 'huge' }, /^maxUploadSize: expected a size such as 10GB or 512MB, got "huge"$/],
    ['zero upload size', { maxUploadSize: '0' }, /^maxUploadSize: /],
    ['command output', { commandOutputLimit: '-1' }, /^commandOutputLimit: /],
    ['running commands', { maxRunningCommands: '0' }, /^maxRunningCommands: /],
    ['rescan interval', { searchRescanInterval: 'sometimes' }, /^searchRescanInterval: /],
    ['help URL', { helpURL: 'javascript:alert(1)' }, /helpURL: invalid URL/],
    ['database scheme', { database: 'mysql://u:secret@h/db' }, /^database: expected a SQLite file or a postgres:\/\/ URL, got "mysql:\/\/…"$/],
    ['postgres URL without a database', { database: 'postgres://u:secret@h' }, /^database: the postgres:\/\/ URL must name a database/],
    ['pool size', { databasePoolSize: '0' }, /^databasePoolSize: /],
    ['issues URL', { issuesURL: 'file:///etc/passwd' }, /issuesURL: invalid URL/],
  ];
  it.each(cases)('%s', (_label, source, message) => {
    expect(configError(() => resolveConfig(source, dir))).toMatch(message);
  });

  it('reports invalid environment values by their variable', () => {
    expect(configError(() => loadConfig({ env: { BURROW_PORT: 'abc' }, cwd: dir }))).toBe(
      'port: expected a whole number from 0 to 65535, got "abc" (from the environment variable BURROW_PORT)',
    );
    expect(configError(() => loadConfig({ env: {}, cwd: dir, flags: { logLevel: 'x' } }))).toMatch(/\(from the command line\)$/);
  });

  it('refuses unknown config-file keys, naming the file and key', () => {
    const file = writeConfigFile({ port: 8080, prot: 8081 });
    expect(configError(() => loadConfig({ env: {}, configFile: file, cwd: dir }))).toBe(`config file ${file}: unknown key prot`);
  });

  it('refuses unreadable, malformed and non-object config files', () => {
    expect(configError(() => loadConfig({ env: {}, configFile: path.join(dir, 'missing.json'), cwd: dir }))).toMatch(/^config file .*missing\.json: .*no such file/i);
    const malformed = writeConfigFile('{"port": 80,', 'bad.json');
    expect(configError(() => loadConfig({ env: {}, configFile: malformed, cwd: dir }))).toMatch(/^config file .*bad\.json: .*JSON/);
    for (const content of ['[]', '"text"', 'null', '42']) {
      const file = writeConfigFile(content, 'shape.json');
      expect(configError(() => loadConfig({ env: {}, configFile: file, cwd: dir }))).toMatch(/expected a JSON object/);
    }
    const folder = path.join(dir, 'folder.json');
    fs.mkdirSync(folder);
    expect(configError(() => loadConfig({ env: {}, configFile: folder, cwd: dir }))).toMatch(/^config file .*folder\.json: /);
  });

  it('refuses numeric file modes in a config file, which JSON cannot write in octal', () => {
    const file = writeConfigFile({ fileMode: 640 });
    expect(configError(() => loadConfig({ env: {}, configFile: file, cwd: dir }))).toMatch(/fileMode: .*"0640"/);
    const text = writeConfigFile({ fileMode: '0640' }, 'text.json');
    expect(loadConfig({ env: {}, configFile: text, cwd: dir }).fileMode).toBe(0o640);
  });

  it('reports a bad value from the config file with the file name', () => {
    const file = writeConfigFile({ logLevel: 'chatty' });
    expect(configError(() => loadConfig({ env: {}, configFile: file, cwd: dir }))).toBe(
      `logLevel: expected one of fatal, error, warn, info, debug, trace, silent, got "chatty" (from the config file ${file})`,
    );
  });
});
