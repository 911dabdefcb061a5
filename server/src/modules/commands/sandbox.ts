import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommandRunnerState } from '@burrow/protocol';
import type { Config } from '../../config.js';

/**
 * Every command and hook runs inside bubblewrap. Its whole view of the file system is the user's
 * scope (read-write at SCOPE_PATH) plus the read-only system folders programs need; it has a
 * fresh /tmp, its own /proc and PID namespace, a minimal /dev, no network, no environment of the
 * server, and, when the server runs as root, an unprivileged uid. Nothing ever runs unconfined:
 * when bubblewrap is missing or cannot start a sandbox, commands and hooks stay off.
 */

/** Where the scope appears inside the sandbox (also HOME). */
export const SCOPE_PATH = '/scope';

/** The uid and gid of `nobody` on Debian and most other systems. */
const NOBODY = 65534;

const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin';

/** The folders of the root that are (or link to) programs and libraries. */
const SYSTEM_FOLDERS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

/**
 * The few files of /etc that programs need: the loader's cache, the alternatives links Debian
 * resolves commands through, and the time zone. Never the rest of /etc (no passwd, no hosts,
 * no configuration of the server's machine).
 */
const ETC_FILES = ['/etc/ld.so.cache', '/etc/alternatives', '/etc/localtime'];

export type SandboxState =
  | { available: true }
  | { available: false; state: Exclude<CommandRunnerState, 'available'>; reason: string };

export type SandboxRun = {
  /** Real path of the scope folder, mounted read-write at SCOPE_PATH. */
  scopeRoot: string;
  /** The working folder inside the sandbox (SCOPE_PATH or below). */
  cwd: string;
  argv: string[];
  /** Variables set beside PATH, HOME, LANG, TERM and PWD. */
  env?: Record<string, string>;
  /** What becomes of the program's standard output (stderr is always a pipe). */
  stdout: 'pipe' | 'ignore';
};

export class SandboxUnavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SandboxUnavailable';
  }
}

/**
 * Maps a real path in the scope to the path the sandbox sees it at, or undefined when the path
 * lies outside the scope (a followed external link).
 */
export function sandboxPathOf(scopeRoot: string, real: string): string | undefined {
  const relative = path.relative(scopeRoot, real);
  if (relative === '') return SCOPE_PATH;
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return path.posix.join(SCOPE_PATH, ...relative.split(path.sep));
}

/** The ids from `commandUser`, or undefined for automatic. */
function configuredUser(config: Pick<Config, 'commandUser'>): { uid: number; gid: number } | undefined {
  if (!config.commandUser) return undefined;
  const [uid, gid] = config.commandUser.split(':').map(Number) as [number, number];
  return { uid, gid };
}

const runningAsRoot = () => process.getuid?.() === 0;

/**
 * Who the sandbox runs as. A server that is not root cannot change ids: the sandbox runs as the
 * server's own user. As root: `commandUser` when set, else the owner of the scope folder when
 * that is not root (a scope owned by a system user works as that user), else nobody.
 */
function idsFor(config: Pick<Config, 'commandUser'>, scope: fs.Stats): { uid: number; gid: number } | undefined {
  if (!runningAsRoot()) return undefined;
  const configured = configuredUser(config);
  if (configured) return configured;
  if (scope.uid !== 0) return { uid: scope.uid, gid: scope.gid !== 0 ? scope.gid : NOBODY };
  return { uid: NOBODY, gid: NOBODY };
}

/** Whether `ids` may pass through a folder with this owner and mode (supplementary groups are dropped). */
function searchable(stat: fs.Stats, ids: { uid: number; gid: number }): boolean {
  if (stat.uid === ids.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === ids.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/**
 * Why a sandbox for this scope folder cannot start, or undefined when it can. bwrap looks the
 * scope up as the sandbox's user, so when the server drops to another user every folder from `/`
 * down to the scope must be searchable by that user; otherwise the start fails deep inside bwrap
 * with a bare "Permission denied". Checked first, so the user is told what to change.
 */
export function scopeUnreachable(config: Pick<Config, 'commandUser'>, scopeRoot: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(scopeRoot);
  } catch {
    return undefined;
  }
  const ids = idsFor(config, stat);
  if (!ids) return undefined;
  let folder = scopeRoot;
  const chain: string[] = [];
  for (;;) {
    chain.push(folder);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const step of chain.reverse()) {
    if (!searchable(fs.statSync(step), ids)) {
      return `Commands run as user ${ids.uid}:${ids.gid}, who cannot reach this folder. Make every folder above it searchable by that user, or set commandUser to its owner.`;
    }
  }
  return undefined;
}

/** bwrap's options for the system part of the sandbox: /usr, the root's links into it, a few /etc files. */
function systemMounts(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of SYSTEM_FOLDERS) {
    const host = `/${name}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(host);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(host), host);
    else if (stat.isDirectory()) args.push('--ro-bind', host, host);
  }
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  return args;
}

/** The scope folder's descriptor is handed to bwrap as this fd (after stdin, stdout, stderr). */
const SCOPE_FD = 3;

/** bwrap's arguments for one run: the confinement, the scope, the working folder and the environment. */
function bwrapArgs(run: Pick<SandboxRun, 'cwd' | 'argv' | 'env'>): string[] {
  const env: Record<string, string> = { ...(run.env ?? {}), PATH: SANDBOX_PATH, HOME: SCOPE_PATH, LANG: 'C.UTF-8', TERM: 'dumb', PWD: run.cwd };
  return [
    // New user, PID, network, IPC, UTS and cgroup namespaces; no nested user namespaces.
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--hostname',
    'burrow',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    ...systemMounts(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    // Bound from the descriptor of the folder the server opened and checked (bwrap still looks
    // the path up as the sandbox's user: the folders above the scope must be searchable by it).
    '--bind-fd',
    String(SCOPE_FD),
    SCOPE_PATH,
    // The sandbox's own root stays as built: writes go to the scope or /tmp only.
    '--remount-ro',
    '/',
    '--chdir',
    run.cwd,
    '--',
    ...run.argv,
  ];
}

/** Opens the scope folder itself (no link as its last part) and checks it is still the folder named. */
function openScope(scopeRoot: string): number {
  const fd = fs.openSync(scopeRoot, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  try {
    if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== scopeRoot) throw new Error('the scope folder moved while the command started');
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * Descriptors above the scope's that would pass through exec into the sandbox: ones the server
 * was started with and never marked close-on-exec (Node's own all are). bwrap hands every open
 * descriptor on to the program, so these are replaced by /dev/null in it.
 */
function inheritedDescriptors(): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc/self/fdinfo')) {
    const fd = Number(name);
    if (!(fd > SCOPE_FD)) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${name}`, 'utf8'))?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & 0o2000000) === 0) found.push(fd);
    } catch {
      // Closed meanwhile.
    }
  }
  return found;
}

export type Sandbox = ReturnType<typeof createSandbox>;

/**
 * The sandbox of one configuration. `ready` resolves once the start-up probe has run; `state`
 * then says whether commands can run or why not. `spawn` starts a program inside the sandbox,
 * in a process group of its own (bwrap leads it; killing the group kills bwrap, and with it the
 * whole PID namespace).
 */
export function createSandbox(config: Pick<Config, 'enableExec' | 'bwrap' | 'commandUser'>) {
  let state: SandboxState | undefined;

  function start(run: SandboxRun): ChildProcess {
    const fd = openScope(run.scopeRoot);
    const devNull = fs.openSync('/dev/null', 'r+');
    try {
      const ids = idsFor(config, fs.fstatSync(fd));
      const stdio: Array<'ignore' | 'pipe' | number> = ['ignore', run.stdout, 'pipe', fd];
      for (const inherited of inheritedDescriptors()) {
        while (stdio.length < inherited) stdio.push('ignore');
        stdio[inherited] = devNull;
      }
      return spawn(config.bwrap, bwrapArgs(run), { cwd: '/', env: {}, detached: true, shell: false, windowsHide: true, ...(ids ?? {}), stdio });
    } finally {
      fs.closeSync(fd);
      fs.closeSync(devNull);
    }
  }

  async function probe(): Promise<SandboxState> {
    if (!config.enableExec) return { available: false, state: 'off', reason: 'execution is disabled (enableExec is false)' };
    try {
      fs.accessSync(config.bwrap, fs.constants.X_OK);
    } catch {
      return {
        available: false,
        state: 'sandbox-missing',
        reason: `bubblewrap was not found at ${config.bwrap} (install the bubblewrap package or set bwrap)`,
      };
    }
    if (config.commandUser && !runningAsRoot() && config.commandUser !== `${process.getuid?.()}:${process.getgid?.()}`) {
      return { available: false, state: 'sandbox-unusable', reason: `commandUser ${config.commandUser} needs the server to run as root` };
    }
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sandbox-probe-'));
    try {
      // Empty, and open to whoever the sandbox runs as.
      fs.chmodSync(folder, 0o755);
      const outcome = await new Promise<{ code: number | null; stderr: string; error?: Error }>((resolve) => {
        let child: ChildProcess;
        try {
          child = start({ scopeRoot: fs.realpathSync(folder), cwd: SCOPE_PATH, argv: ['true'], stdout: 'ignore' });
        } catch (error) {
          resolve({ code: null, stderr: '', error: error as Error });
          return;
        }
        let stderr = '';
        child.stderr?.setEncoding('utf8');
        child.stderr?.on('data', (chunk: string) => (stderr += chunk));
        const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
        child.once('error', (error) => {
          clearTimeout(timer);
          resolve({ code: null, stderr, error });
        });
        child.once('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stderr });
        });
      });
      if (outcome.code === 0) return { available: true };
      const why = outcome.error?.message ?? (outcome.stderr.trim().split('\n')[0] || `exit status ${outcome.code}`);
      return { available: false, state: 'sandbox-unusable', reason: `bubblewrap at ${config.bwrap} cannot start a sandbox: ${why}` };
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }

  const ready = probe().then((probed) => {
    state = probed;
    return probed;
  });

  return {
    ready,
    /** The probe's outcome; undefined until `ready` resolves. */
    get state(): SandboxState | undefined {
      return state;
    },
    /** Starts a program in the sandbox; throws SandboxUnavailable when the sandbox cannot run. */
    spawn(run: SandboxRun): ChildProcess {
      if (!state?.available) throw new SandboxUnavailable(state && !state.available ? state.reason : 'the sandbox is still being checked');
      return start(run);
    },
  };
}

const sandboxes = new WeakMap<object, Sandbox>();

/** The one sandbox (and start-up probe) of a configuration, shared by commands, hooks and the web app. */
export function sandboxFor(config: Config): Sandbox {
  let sandbox = sandboxes.get(config);
  if (!sandbox) {
    sandbox = createSandbox(config);
    sandboxes.set(config, sandbox);
  }
  return sandbox;
}

/** The runner's state for clients: `available` or the reason it is off. */
export function runnerState(state: SandboxState | undefined): CommandRunnerState {
  if (!state) return 'sandbox-unusable';
  return state.available ? 'available' : state.state;
}
