import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import type { CommandLimits } from './command-runner.js';
import { commandsRoutes } from './commands.routes.js';
import { createCommandsService } from './commands.service.js';
import { sandboxFor } from './sandbox.js';

export type CommandsOptions = Partial<CommandLimits> & {
  /** Commands running at once, server-wide (the `maxRunningCommands` setting unless set). */
  maxRunning?: number;
  /** How long a connection may wait before sending its command (default 60 s). */
  idleMs?: number;
};

/**
 * The command runner: a WebSocket per command, off unless the server enables execution and the
 * sandbox works (checked once here, at start; the log says why it is off).
 */
export const commandsModule: FastifyPluginAsync<{ services: Services } & CommandsOptions> = async (app, { services, ...options }) => {
  const sandbox = sandboxFor(services.config);
  const state = await sandbox.ready;
  if (!state.available && state.state !== 'off') app.log.warn(`commands and hooks are off: ${state.reason}`);
  const commands = createCommandsService({ config: services.config, settings: services.settings, scopes: services.scopes, sandbox });
  await app.register(commandsRoutes, {
    commands,
    sandbox,
    auth: services.auth,
    limits: {
      timeLimitMs: options.timeLimitMs ?? services.config.commandTimeLimit * 1000,
      outputLimitBytes: options.outputLimitBytes ?? services.config.commandOutputLimit,
    },
    maxRunning: options.maxRunning ?? services.config.maxRunningCommands,
    idleMs: options.idleMs ?? 60_000,
  });
};
