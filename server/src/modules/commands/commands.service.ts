import { CommandMessages, statusLine } from '@burrow/protocol';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRecord } from '../users/users.model.js';
import { CommandRefusal, commandArgv } from './command-line.js';

export type PreparedCommand = {
  argv: string[];
  /** Real path of the folder the command runs in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
};

export type CommandsService = ReturnType<typeof createCommandsService>;

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Decides whether and how a user's command line runs: execution must be enabled on the server
 * and the user must have `execute`; the program must be one of the user's commands; the working
 * folder is the requested path through the scope gate. Refusals carry the text sent back.
 */
export function createCommandsService(deps: { config: Config; settings: SettingsService; scopes: Scopes }) {
  const { config, settings, scopes } = deps;

  return {
    async prepare(user: UserRecord, decodedPath: string, line: string): Promise<PreparedCommand> {
      if (!config.enableExec || !user.perm.execute) throw new CommandRefusal(CommandMessages.notAllowed);
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
      // Only what a program needs to run; none of the server's own settings or secrets.
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH || DEFAULT_PATH,
        HOME: scope.root,
        PWD: cwd,
        LANG: 'C.UTF-8',
        TERM: 'dumb',
      };
      return { argv, cwd, env };
    },
  };
}
