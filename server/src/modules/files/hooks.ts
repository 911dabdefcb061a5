import type { ChildProcess } from 'node:child_process';
import type { HookEvent } from '@burrow/protocol';
import type { Config } from '../../config.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRecord } from '../users/users.model.js';
import { internal } from '../../errors.js';
import { splitCommandLine } from './shell-words.js';
import { SCOPE_PATH, sandboxFor, sandboxPathOf } from '../commands/sandbox.js';

/** The operations that have `before_` and `after_` hooks. */
import type { HookAction } from '@burrow/protocol';
export type { HookAction };

export type HookContext = {
  user: Pick<UserRecord, 'username' | 'scope'>;
  /** Real path of the file acted on (hooks see it at its path in the sandbox). */
  file: string;
  /** Real path of the destination (copy and rename), else empty (hooks see it in the sandbox too). */
  destination?: string;
};

export type HookOptions = {
  /** Hooks still running after this long are killed (blocking ones then fail). */
  timeoutMs?: number;
  log?: { info: (object: unknown, message: string) => void; warn: (object: unknown, message: string) => void };
};

const DEFAULT_TIMEOUT_MS = 60_000;
type Variables = Record<'FILE' | 'SCOPE' | 'TRIGGER' | 'USERNAME' | 'DESTINATION', string>;

/**
 * An argument that is exactly `$NAME` or `${NAME}` of a hook variable becomes its value, as one
 * argument whatever it holds. Anything else stays as written: a file name is never pasted into
 * text a program may read as code (`sh -c 'echo "$FILE"'` reads it from the environment).
 */
export function substituteVariable(argument: string, variables: Variables): string {
  const match = /^\$(?:\{([A-Z_]+)\}|([A-Z_]+))$/.exec(argument);
  const name = (match?.[1] ?? match?.[2]) as keyof Variables | undefined;
  return name !== undefined && Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : argument;
}

/** Kills a hook and everything it started (bwrap leads its process group; its PID namespace dies with it). */
function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export type Hooks = ReturnType<typeof createHooks>;

/** What the hook runner reads: whether exec is on, the hook lines, and the acting user's scope. */
export type HooksDeps = { config: Config; settings: Pick<SettingsService, 'get'>; scopes: Pick<Scopes, 'scopeRoot'> };

/**
 * The hook runner of `settings.commands`. Hooks run only when the server enables exec and the
 * sandbox works. Each line is split into words (never given to a shell); an argument that is
 * exactly a hook variable becomes its value and every variable is set in the environment; a
 * trailing `&` runs it in the background, and every hook is killed after the time limit. Hooks
 * run in the same sandbox as commands, with the acting user's scope as its only writable folder:
 * FILE, DESTINATION and SCOPE are the paths the sandbox sees (`/scope/…`). A failing blocking
 * `before_` hook aborts the operation with a 500; a failing `after_` hook is only logged, because
 * the operation has already happened.
 */
export function createHooks(services: HooksDeps, options: HookOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sandbox = sandboxFor(services.config);
  let warnedOff = false;

  function runLine(rawLine: string, scopeRoot: string, variables: Variables): Promise<void> {
    let line = rawLine.trim();
    const background = line.endsWith('&');
    if (background) line = line.slice(0, -1).trim();
    let words: string[];
    try {
      words = splitCommandLine(line);
    } catch (error) {
      return Promise.reject(new Error(`cannot parse hook "${rawLine}": ${(error as Error).message}`));
    }
    if (words.length === 0) return Promise.resolve();
    const [command, ...rest] = words as [string, ...string[]];
    const args = rest.map((argument) => substituteVariable(argument, variables));
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = sandbox.spawn({ scopeRoot, cwd: SCOPE_PATH, argv: [command, ...args], env: variables, stdout: 'ignore' });
      } catch (error) {
        const failure = new Error(`hook "${rawLine}" could not start: ${(error as Error).message}`);
        if (!background) reject(failure);
        else {
          options.log?.warn({ err: failure, hook: rawLine }, 'background hook failed');
          resolve();
        }
        return;
      }
      let stderr = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        if (stderr.length < 4096) stderr += chunk;
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, timeoutMs);
      timer.unref();
      const finish = (error?: Error) => {
        clearTimeout(timer);
        if (background) {
          if (error) options.log?.warn({ err: error, hook: rawLine }, 'background hook failed');
          return;
        }
        if (error) reject(error);
        else resolve();
      };
      child.once('error', (error) => finish(error));
      child.once('close', (code, signal) => {
        if (timedOut) finish(new Error(`hook "${rawLine}" timed out after ${timeoutMs} ms`));
        else if (code !== 0) finish(new Error(`hook "${rawLine}" exited with ${code ?? signal}: ${stderr.trim()}`));
        else finish();
      });
      if (background) {
        child.unref();
        resolve();
      }
    });
  }

  /** The path the sandbox sees a real path of the scope at. */
  function inSandbox(scopeRoot: string, real: string): string {
    const inside = sandboxPathOf(scopeRoot, real);
    if (inside === undefined) throw new Error('the file lies outside the scope the hook runs in');
    return inside;
  }

  async function run(event: HookEvent, context: HookContext): Promise<void> {
    if (!services.config.enableExec) return;
    const lines = (services.settings.get().commands[event] ?? []).filter((line) => line.trim());
    if (lines.length === 0) return;
    const state = await sandbox.ready;
    if (!state.available) {
      // Never unconfined: without the sandbox hooks stay off, as the start-up log said.
      if (!warnedOff) options.log?.warn({ reason: state.reason }, 'hooks are off: the sandbox cannot run');
      warnedOff = true;
      return;
    }
    const scopeRoot = await services.scopes.scopeRoot(context.user.scope);
    const variables: Variables = {
      FILE: inSandbox(scopeRoot, context.file),
      SCOPE: SCOPE_PATH,
      TRIGGER: event,
      USERNAME: context.user.username,
      DESTINATION: context.destination ? inSandbox(scopeRoot, context.destination) : '',
    };
    for (const line of lines) await runLine(line, scopeRoot, variables);
  }

  return {
    /** Runs the lines of one event in order; rejects when a blocking hook fails. */
    run,
    /**
     * Runs `operation` between the `before_` and `after_` hooks of `action`. A failing before
     * hook aborts with a 500 before anything is touched.
     */
    async around<T>(action: HookAction, context: HookContext | (() => HookContext), operation: () => Promise<T>): Promise<T> {
      const contextOf = () => (typeof context === 'function' ? context() : context);
      try {
        await run(`before_${action}`, contextOf());
      } catch (error) {
        options.log?.warn({ err: error, action }, 'before hook failed; operation aborted');
        throw internal('hook failed');
      }
      const result = await operation();
      try {
        await run(`after_${action}`, contextOf());
      } catch (error) {
        options.log?.warn({ err: error, action }, 'after hook failed');
      }
      return result;
    },
  };
}
