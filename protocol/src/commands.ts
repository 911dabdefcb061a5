/**
 * The command runner's WebSocket (`/api/command/{path}`). The upgrade request carries the token
 * (the `auth` cookie, `X-Auth` or `?auth=`); the client then sends one text frame with the command
 * line, and the server answers with one text frame per output line and ends by closing the socket.
 */
export const CommandMessages = {
  /** Sent before closing when execution is off, the user lacks `execute`, or the program is not theirs. */
  notAllowed: 'Command not allowed.',
} as const;

/**
 * Whether the command runner (and the hooks) can run: `available`, `off` (the server does not
 * enable execution), `sandbox-missing` (bubblewrap is not installed) or `sandbox-unusable`
 * (bubblewrap cannot start a sandbox here, e.g. without user namespaces). Commands never run
 * outside the sandbox.
 */
export const CommandRunnerStates = ['available', 'off', 'sandbox-missing', 'sandbox-unusable'] as const;
export type CommandRunnerState = (typeof CommandRunnerStates)[number];

/** Close codes the server ends a command with. */
export const CommandCloseCodes = {
  /** The program exited with status 0. */
  success: 1000,
  /** Refused before anything ran (see the preceding text frame). */
  refused: 1008,
  /** Too many commands are running; try again later. */
  busy: 1013,
  /** Non-zero exit, failure to start, time or output limit (reason `Internal Server Error`, or the limit). */
  failed: 1011,
} as const;
