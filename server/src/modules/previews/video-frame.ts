import { execFile, spawn } from 'node:child_process';

/** A frame this far in shows the video rather than a black title card. */
const FRAME_AT_SECONDS = 1;
const FFMPEG_TIMEOUT_MS = 15_000;
/** A PNG of one frame; anything larger means something is wrong. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Runs ffmpeg (no shell) for one PNG frame at `seconds`; undefined when it yields none. */
function grabFrame(command: string, real: string, seconds: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const args = [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-threads',
      '1',
      '-ss',
      String(seconds),
      // `file:` keeps a name with a colon from being read as another protocol.
      '-i',
      `file:${real}`,
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-an',
      '-sn',
      '-f',
      'image2pipe',
      '-c:v',
      'png',
      'pipe:1',
    ];
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FRAME_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0 || size > MAX_FRAME_BYTES || size === 0) resolve(undefined);
      else resolve(Buffer.concat(chunks));
    });
  });
}

export type VideoFrames = {
  /** Whether the tool runs here; asked once (`ffmpeg -version`). */
  available(): Promise<boolean>;
  /**
   * One frame of a video as PNG bytes, about a second in (from the start for shorter clips),
   * or undefined when none can be produced. Time-limited and size-limited.
   */
  extract(real: string): Promise<Buffer | undefined>;
};

export function createVideoFrames(command = 'ffmpeg'): VideoFrames {
  let available: Promise<boolean> | undefined;
  return {
    available() {
      available ??= new Promise((resolve) => {
        execFile(command, ['-version'], { timeout: 5000 }, (error) => resolve(!error));
      });
      return available;
    },
    async extract(real) {
      return (await grabFrame(command, real, FRAME_AT_SECONDS)) ?? (await grabFrame(command, real, 0));
    },
  };
}
