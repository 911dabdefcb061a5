import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export type CommandLimits = {
  /** Wall-clock limit per command (default 10 minutes). */
  timeLimitMs: number;
  /** Output (stdout and stderr together) per command (default 10 MB). */
  outputLimitBytes: number;
};

export type CommandEnd =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'failed-to-start' }
  | { kind: 'time-limit' }
  | { kind: 'output-limit' }
  | { kind: 'stopped' };

export type RunningCommand = {
  readonly pid: number | undefined;
  /** Resolves once the program and everything it started are gone and all output was handed on. */
  readonly ended: Promise<CommandEnd>;
  /** Kills the whole process tree (the client went away, the server stops). */
  stop(): void;
  /** Flow control: stop reading output while the client is behind, and resume. */
  pause(): void;
  resume(): void;
};

/** A line longer than this is handed on in pieces (binary output has no line breaks). */
const MAX_LINE = 64 * 1024;

/**
 * Watches a program `start` launched (with piped stdout and stderr, as the leader of its own
 * process group, so that the program and anything it starts can be killed together) under the
 * time and output limits. Output lines (stdout and stderr as they arrive, without line endings)
 * go to `onLine`. When `start` throws, the command ends as failed to start.
 */
export function runCommand(spec: { start: () => ChildProcess; limits: CommandLimits; onLine: (line: string) => void }): RunningCommand {
  const { limits, onLine } = spec;
  let reason: CommandEnd | undefined;
  let outputBytes = 0;

  let child: ChildProcess & { stdout: Readable; stderr: Readable };
  try {
    child = spec.start() as typeof child;
  } catch {
    return { pid: undefined, ended: Promise.resolve({ kind: 'failed-to-start' }), stop() {}, pause() {}, resume() {} };
  }

  let finished = false;
  function killTree(): void {
    // Once everything closed, the group number may come to belong to someone else.
    if (child.pid === undefined || finished) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /**
   * A process that left the group (setsid) survives the kill and may hold the pipes open: once a
   * command is stopped, give its output a moment and then stop listening.
   */
  function releasePipes(): void {
    setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
    }, 1_000).unref();
  }

  function end(why: CommandEnd): void {
    reason ??= why;
    killTree();
    releasePipes();
  }

  const timer = setTimeout(() => end({ kind: 'time-limit' }), limits.timeLimitMs);

  function readLines(stream: Readable): Promise<void> {
    const decoder = new StringDecoder('utf8');
    let partial = '';
    const deliver = (text: string) => {
      partial += text;
      let newline: number;
      while ((newline = partial.indexOf('\n')) >= 0) {
        const line = partial.slice(0, newline);
        partial = partial.slice(newline + 1);
        onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
      while (partial.length > MAX_LINE) {
        onLine(partial.slice(0, MAX_LINE));
        partial = partial.slice(MAX_LINE);
      }
    };
    stream.on('data', (chunk: Buffer) => {
      if (reason?.kind === 'output-limit') return;
      const room = limits.outputLimitBytes - outputBytes;
      outputBytes += chunk.length;
      if (chunk.length > room) {
        deliver(decoder.write(chunk.subarray(0, Math.max(room, 0))));
        end({ kind: 'output-limit' });
        return;
      }
      deliver(decoder.write(chunk));
    });
    return new Promise((resolve) => {
      stream.once('close', () => {
        const rest = partial + decoder.end();
        if (rest && reason?.kind !== 'output-limit') onLine(rest);
        resolve();
      });
    });
  }

  const output = Promise.all([readLines(child.stdout), readLines(child.stderr)]);
  // Background processes the program left behind would hold the pipes open: once it exits, its
  // group goes too.
  child.once('exit', killTree);

  const ended = new Promise<CommandEnd>((resolve) => {
    child.once('error', () => {
      if (child.pid === undefined) {
        clearTimeout(timer);
        reason ??= { kind: 'failed-to-start' };
        resolve(reason);
      }
    });
    child.once('close', (code, signal) => {
      finished = true;
      clearTimeout(timer);
      void output.then(() => resolve(reason ?? { kind: 'exited', code, signal }));
    });
  });

  return {
    pid: child.pid,
    ended,
    stop: () => end({ kind: 'stopped' }),
    pause() {
      child.stdout.pause();
      child.stderr.pause();
    },
    resume() {
      child.stdout.resume();
      child.stderr.resume();
    },
  };
}
