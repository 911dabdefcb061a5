import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../app.js';
import type { CommandLimits } from './command-runner.js';
import { commandsRoutes } from './commands.routes.js';
import { createCommandsService } from './commands.service.js';

export type CommandsOptions = Partial<CommandLimits> & {
  /** Commands running at once, server-wide (default 16). */
  maxRunning?: number;
  /** How long a connection may wait before sending its command (default 60 s). */
  idleMs?: number;
};

/** The command runner: a WebSocket per command, off unless the server enables execution. */
export const commandsModule: FastifyPluginAsync<{ services: Services } & CommandsOptions> = async (app, { services, ...options }) => {
  const commands = createCommandsService({ config: services.config, settings: services.settings, scopes: services.scopes });
  await app.register(commandsRoutes, {
    commands,
    auth: services.auth,
    limits: {
      timeLimitMs: options.timeLimitMs ?? 10 * 60_000,
      outputLimitBytes: options.outputLimitBytes ?? 10 * 1024 * 1024,
    },
    maxRunning: options.maxRunning ?? 16,
    idleMs: options.idleMs ?? 60_000,
  });
};
