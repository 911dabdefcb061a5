import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { RawData, WebSocket } from 'ws';
import { ApiPaths, ApiTags, CommandCloseCodes, WildcardParams, emptyResponse, responses, statusLine } from '@burrow/protocol';
import { forbidden, tooManyRequests, unauthorized } from '../../errors.js';
import { tokenOf } from '../../plugins/auth.js';
import { pathAfter } from '../../http/request-path.js';
import type { AuthService } from '../auth/auth.service.js';
import type { UserRecord } from '../users/users.model.js';
import { CommandRefusal } from './command-line.js';
import type { CommandEnd, RunningCommand } from './command-runner.js';
import type { CommandsService } from './commands.service.js';

export type CommandRouteOptions = {
  /** Prepares and starts commands, under the server-wide limit of commands running at once. */
  commands: CommandsService;
  auth: AuthService;
  /** How long a connection may stay without a command. */
  idleMs: number;
  /** Command sockets one client address may hold open at once (default 8). */
  maxSocketsPerClient?: number;
};

/** Output waiting in the socket beyond this pauses the program's output until the client catches up. */
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;

/** Browsers always send Origin on a WebSocket upgrade; its host must be ours (no cross-site use of the cookie). */
function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === String(request.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

function closeFor(end: CommandEnd): { code: number; reason: string; message?: string } {
  switch (end.kind) {
    case 'exited':
      return end.code === 0 ? { code: CommandCloseCodes.success, reason: '' } : { code: CommandCloseCodes.failed, reason: 'Internal Server Error' };
    case 'failed-to-start':
      return { code: CommandCloseCodes.failed, reason: 'Internal Server Error', message: 'The command could not be started.' };
    case 'time-limit':
      return { code: CommandCloseCodes.failed, reason: 'Time limit reached', message: 'The command took too long and was stopped.' };
    case 'output-limit':
      return { code: CommandCloseCodes.failed, reason: 'Output limit reached', message: 'The command printed too much and was stopped.' };
    case 'stopped':
      return { code: CommandCloseCodes.failed, reason: 'Stopped' };
  }
}

/**
 * `WebSocket /api/command/{path}` (wire protocol, section 11). Before the upgrade: the Origin
 * must match the Host (403), a valid token must come in `X-Auth`, `?auth=` or the `auth` cookie
 * (401), and the client must hold fewer than `maxSocketsPerClient` sockets (429); nothing is
 * upgraded otherwise. Then one frame holds the command line; the program's output comes back a
 * line per frame, and the server closes the socket when it ends.
 */
export const commandsRoutes: FastifyPluginAsync<CommandRouteOptions> = async (app, options) => {
  const { commands, auth, idleMs } = options;
  const maxSocketsPerClient = options.maxSocketsPerClient ?? 8;
  /** Open sockets (and upgrades under way) per client address. */
  const socketsByClient = new Map<string, number>();

  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // A client that vanishes mid-command is ordinary here, not an error worth a log line.
    errorHandler: (error, socket, request) => {
      request.log.debug({ err: error }, 'command socket error');
      socket.terminate();
    },
  });

  app.addHook('onClose', async () => {
    commands.stopAll();
  });

  const preValidation = async (request: FastifyRequest) => {
    if (!isSameOrigin(request)) throw forbidden();
    const token = tokenOf(request);
    if (token === undefined) throw unauthorized();
    request.auth = await auth.authenticate(token, { ip: request.ip, headers: request.headers });
    // Counted from here until the connection closes, whether or not the upgrade completes, so a
    // burst of upgrades cannot pass the check together. (A plain GET here upgrades nothing.)
    if (!request.ws) return;
    const client = request.clientAddress;
    const open = socketsByClient.get(client) ?? 0;
    if (open >= maxSocketsPerClient) throw tooManyRequests(1);
    socketsByClient.set(client, open + 1);
    request.raw.socket.once('close', () => {
      const left = (socketsByClient.get(client) ?? 1) - 1;
      if (left > 0) socketsByClient.set(client, left);
      else socketsByClient.delete(client);
    });
  };

  const handler = (socket: WebSocket, request: FastifyRequest) => {
    const folder = pathAfter(request.url, ApiPaths.command);
    const user: UserRecord = request.auth!.user;
    let started = false;
    let command: RunningCommand | undefined;
    let queue = Promise.resolve();

    const send = (text: string) => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    const close = (code: number, reason = '') => {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
    };
    const idle = setTimeout(() => close(CommandCloseCodes.refused, 'No command received'), idleMs);

    socket.on('close', () => {
      clearTimeout(idle);
      command?.stop();
    });

    /** The audit log names the program and the folder, never the rest of the line (it may hold secrets). */
    const audit = (who: UserRecord, outcome: 'ok' | 'denied' | 'failed', details: Record<string, unknown>) =>
      void request.server.audit?.record({ actor: { id: who.id, username: who.username }, client: request.clientAddress, action: 'command.run', path: folder, outcome, details });

    async function run(line: string, who: UserRecord): Promise<void> {
      let prepared;
      try {
        prepared = await commands.prepare(who, folder, line);
      } catch (error) {
        if (!(error instanceof CommandRefusal)) {
          request.log.error({ err: error }, 'command preparation failed');
          send(statusLine(500));
          close(CommandCloseCodes.failed, 'Internal Server Error');
          return;
        }
        audit(who, 'denied', { refused: true });
        send(error.message);
        close(CommandCloseCodes.refused);
        return;
      }
      if (socket.readyState !== socket.OPEN) return;
      let paused = false;
      const current = commands.start(prepared, (text) => {
        if (socket.readyState !== socket.OPEN) return;
        socket.send(text, () => {
          if (paused && socket.bufferedAmount < LOW_WATER) {
            paused = false;
            current!.resume();
          }
        });
        if (!paused && socket.bufferedAmount > HIGH_WATER) {
          paused = true;
          current!.pause();
        }
      });
      if (!current) {
        send('Too many commands are running; try again later.');
        close(CommandCloseCodes.busy, 'Try Again Later');
        return;
      }
      command = current;
      request.log.info({ user: who.username, program: prepared.argv[0], pid: current.pid }, 'command started');
      const end = await current.ended;
      request.log.info({ user: who.username, program: prepared.argv[0], end }, 'command ended');
      audit(who, end.kind === 'exited' && end.code === 0 ? 'ok' : 'failed', {
        program: prepared.argv[0],
        end: end.kind,
        ...(end.kind === 'exited' ? { exitCode: end.code } : {}),
      });
      const { code, reason, message } = closeFor(end);
      if (message) send(message);
      close(code, reason);
    }

    async function onMessage(data: RawData, isBinary: boolean): Promise<void> {
      if (started || isBinary) return;
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      // Blank frames are skipped, as upstream does.
      if (text.trim() === '') return;
      started = true;
      clearTimeout(idle);
      await run(text, user);
    }

    // Frames are handled one after the other: only the first command runs.
    socket.on('message', (data, isBinary) => {
      queue = queue.then(() => onMessage(data, isBinary)).catch((error: unknown) => {
        request.log.error({ err: error }, 'command failed');
        close(CommandCloseCodes.failed, 'Internal Server Error');
      });
    });
  };

  const schema = (url: string) => ({
    summary: 'Run a command in a folder over a WebSocket: send the command line as one text frame, read its output line by line',
    tags: [ApiTags.commands],
    ...(url.endsWith('/*') ? { params: WildcardParams } : {}),
    response: responses({ 101: emptyResponse('Switching to the WebSocket protocol') }),
  });
  app.get(ApiPaths.command, { websocket: true, preValidation, schema: schema(ApiPaths.command) }, handler);
  app.get(`${ApiPaths.command}/*`, { websocket: true, preValidation, schema: schema(`${ApiPaths.command}/*`) }, handler);
};
