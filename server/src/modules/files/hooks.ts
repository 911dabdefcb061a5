import { spawn } from 'node:child_process';
import type { HookEvent } from '@burrow/protocol';
import type { Services } from '../../app.js';
import type { UserRecord } from '../users/users.model.js';
import { internal } from '../../errors.js';
import { splitCommandLine } from './shell-words.js';

/** The operations that have `before_` and `after_` hooks. */
export type HookAction = 'save' | 'copy' | 'rename' | 'upload' | 'delete';

export type HookContext = {
  user: Pick<UserRecord, 'username' | 'scope'>;
  /** Real path of the file acted on. */
  file: string;
  /** Real path of the destination (copy and rename), else empty. */
  destination?: string;
};

export type HookOptions = {
  /** Hooks still running after this long are killed (blocking ones then fail). */
  timeoutMs?: number;
  log?: { info: (object: unknown, message: string) => void; warn: (object: unknown, message: string) => void };
};

const DEFAULT_TIMEOUT_MS = 60_000;
const VARIABLES = ['FILE', 'SCOPE', 'TRIGGER', 'USERNAME', 'DESTINATION'] as const;
type Variables = Record<(typeof VARIABLES)[number], string>;

/** Expands `$NAME` and `${NAME}` for the hook variables only; anything else is left as written. */
export function expandVariables(argument: string, variables: Variables): string {
  return argument.replace(/\$(?:\{([A-Z_]+)\}|([A-Z_]+))/g, (match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare) as keyof Variables;
    return Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : match;
  });
}

/**
 * The server's environment without its own configuration (BURROW_*: secrets such as the
 * reCAPTCHA secret or a first-run admin password may live there); hooks get the rest, as
 * upstream passes its environment on.
 */
function hookEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BURROW_')));
}

/** Kills a hook and everything it started (it runs as its own process group). */
function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export type Hooks = ReturnType<typeof createHooks>;

/**
 * The hook runner of `settings.commands`. Hooks run only when the server enables exec. Each line
 * is split into words (never given to a shell), the hook variables are expanded in its arguments
 * and set in its environment, a trailing `&` runs it in the background, and every hook is killed
 * after the time limit. A failing blocking `before_` hook aborts the operation with a 500; a
 * failing `after_` hook is only logged, because the operation has already happened.
 */
export function createHooks(services: Pick<Services, 'config' | 'settings'>, options: HookOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  function runLine(rawLine: string, variables: Variables): Promise<void> {
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
    const args = rest.map((argument) => expandVariables(argument, variables));
    return new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...hookEnvironment(), ...variables },
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
        shell: false,
      });
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

  async function run(event: HookEvent, context: HookContext): Promise<void> {
    if (!services.config.enableExec) return;
    const lines = services.settings.get().commands[event] ?? [];
    const variables: Variables = {
      FILE: context.file,
      SCOPE: context.user.scope,
      TRIGGER: event,
      USERNAME: context.user.username,
      DESTINATION: context.destination ?? '',
    };
    for (const line of lines) {
      if (!line.trim()) continue;
      await runLine(line, variables);
    }
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
