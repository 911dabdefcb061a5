import { CommandMessages, statusLine } from '@burrow/protocol';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRecord } from '../users/users.model.js';
import { CommandRefusal, commandArgv } from './command-line.js';
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
export function createCommandsService(deps: { config: Config; settings: SettingsService; scopes: Scopes; sandbox: Sandbox }) {
  const { config, settings, scopes, sandbox } = deps;

  return {
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
