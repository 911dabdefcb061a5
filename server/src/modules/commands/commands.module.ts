import type { FastifyPluginAsync } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { commandsRoutes } from './commands.routes.js';
import type { CommandsService } from './commands.service.js';

export type CommandsModuleDeps = {
  commands: CommandsService;
  auth: AuthService;
  /** How long a connection may wait before sending its command (default 60 s). */
  idleMs?: number;
};

/**
 * The command runner: a WebSocket per command, off unless the server enables execution and the
 * sandbox works (the composition root logs once why it is off).
 */
export const commandsModule: FastifyPluginAsync<CommandsModuleDeps> = async (app, { commands, auth, idleMs }) => {
  await app.register(commandsRoutes, { commands, auth, idleMs: idleMs ?? 60_000 });
};
