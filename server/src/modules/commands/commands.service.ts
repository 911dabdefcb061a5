import { CommandMessages, statusLine } from '@burrow/protocol';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRecord } from '../users/users.model.js';
import { CommandRefusal, commandArgv } from './command-line.js';
import { runCommand, type CommandLimits, type RunningCommand } from './command-runner.js';
import { sandboxPathOf, scopeUnreachable, type Sandbox, type SandboxRun } from './sandbox.js';

export type PreparedCommand = SandboxRun;

export type CommandsService = ReturnType<typeof createCommandsService>;

/** What a user is told when the sandbox cannot run (the log and `burrow config show` say more). */
export const SandboxRefusals = {
  'sandbox-missing': 'Commands are off: the server has no sandbox to run them in (bubblewrap is not installed).',
  'sandbox-unusable': 'Commands are off: the server cannot start the sandbox they run in.',
} as const;

/**
 * Decides whether and how a user's command line runs: execution must be enabled on the server,
 * the sandbox must work, and the user must have `execute`; the program must be one of the user's
 * commands; the working folder is the requested path through the scope gate, given as the path
 * the sandbox sees it at. Refusals carry the text sent back.
 */
export type CommandsDeps = {
  config: Config;
  settings: Pick<SettingsService, 'get'>;
  scopes: Scopes;
  sandbox: Sandbox;
  /** Time and output limits per command (the server configuration's unless set). */
  limits?: Partial<CommandLimits>;
  /** Commands running at once, server-wide (the `maxRunningCommands` configuration unless set). */
  maxRunning?: number;
};

/**
 * Decides whether and how a user's command line runs (see `prepare`) and runs it in the sandbox
 * under the time and output limits, at most `maxRunning` at once across the server.
 */
export function createCommandsService(deps: CommandsDeps) {
  const { config, settings, scopes, sandbox } = deps;
  const limits: CommandLimits = {
    timeLimitMs: deps.limits?.timeLimitMs ?? config.commandTimeLimit * 1000,
    outputLimitBytes: deps.limits?.outputLimitBytes ?? config.commandOutputLimit,
  };
  const maxRunning = deps.maxRunning ?? config.maxRunningCommands;
  const running = new Set<RunningCommand>();

  return {
    /**
     * Starts a prepared command, its output lines going to `onLine`; undefined when `maxRunning`
     * commands are already running. It counts as running until it has ended.
     */
    start(prepared: PreparedCommand, onLine: (line: string) => void): RunningCommand | undefined {
      if (running.size >= maxRunning) return undefined;
      const command = runCommand({ start: () => sandbox.spawn(prepared), limits, onLine });
      running.add(command);
      void command.ended.finally(() => running.delete(command));
      return command;
    },

    /** Stops every running command (the server is closing). */
    stopAll(): void {
      for (const command of running) command.stop();
    },

    async prepare(user: UserRecord, decodedPath: string, line: string): Promise<PreparedCommand> {
      if (!config.enableExec || !user.perm.execute) throw new CommandRefusal(CommandMessages.notAllowed);
      const state = await sandbox.ready;
      if (!state.available) throw new CommandRefusal(state.state === 'off' ? CommandMessages.notAllowed : SandboxRefusals[state.state]);
      const argv = commandArgv(line, user.commands, settings.get().shell);
      const scope = await scopes.forUser(user);
      let cwd: string;
      try {
        const folder = await scope.resolve(decodedPath, 'read');
        if (!folder.stat?.isDirectory()) throw new AppError('not_found');
        cwd = folder.real;
      } catch (error) {
        // The same words as the HTTP API, and never the real path behind the request.
        if (error instanceof AppError) throw new CommandRefusal(statusLine(error.status));
        throw error;
      }
      // A folder reached through a followed external link is not in the sandbox.
      const inside = sandboxPathOf(scope.root, cwd);
      if (inside === undefined) throw new CommandRefusal(statusLine(403));
      const unreachable = scopeUnreachable(config, scope.root);
      if (unreachable) throw new CommandRefusal(unreachable);
      return { scopeRoot: scope.root, cwd: inside, argv, stdout: 'pipe' };
    },
  };
}
