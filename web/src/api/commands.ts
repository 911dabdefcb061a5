import { ApiPaths } from '@burrow/protocol/paths';
import { encodePath } from '../lib/paths';
import { openWebSocket } from './http-client';

type CommandEnd = {
  /** The socket's close code (1000 for a clean exit, 1011 for a failure, 1006 for a lost connection). */
  code: number;
  reason: string;
  /** False when no connection was ever made (refused before the upgrade, or unreachable). */
  wasConnected: boolean;
};

export type CommandHandlers = {
  /** One line of the program's output, as sent (colour codes included). */
  onLine: (text: string) => void;
  onEnd: (end: CommandEnd) => void;
};

export type RunningCommand = {
  /** Closes the connection, which stops the program on the server. */
  stop: () => void;
};

/**
 * WebSocket /api/command/{folder}: sends one command line, reports each output frame, and ends
 * when the server closes the connection (that is how the end of a command is signalled).
 */
export function runCommand(folder: string, line: string, handlers: CommandHandlers): RunningCommand {
  const socket = openWebSocket(ApiPaths.command + encodePath(folder.startsWith('/') ? folder : '/' + folder));
  let wasConnected = false;
  let hasEnded = false;
  socket.addEventListener('open', () => {
    wasConnected = true;
    socket.send(line);
  });
  socket.addEventListener('message', (event: MessageEvent) => {
    if (typeof event.data === 'string') handlers.onLine(event.data);
  });
  socket.addEventListener('close', (event: CloseEvent) => {
    if (hasEnded) return;
    hasEnded = true;
    handlers.onEnd({ code: event.code, reason: event.reason, wasConnected });
  });
  return {
    stop: () => {
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
    },
  };
}
