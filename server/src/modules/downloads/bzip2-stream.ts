import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { Duplex, type Readable, type Writable } from 'node:stream';

/**
 * bzip2 compression as a stream, run in a child process. Two encoders can do the work: the
 * system `bzip2` tool when it is installed (fastest, one standard stream), otherwise the
 * `node-bzip2` binding inside a child Node process. The binding prints a line to its process's
 * standard output whenever a result buffer is freed, which would corrupt the server's log, so it
 * never runs in the server process itself: the child writes the compressed bytes to a separate
 * pipe and its standard output is discarded. The child compresses 8 MiB blocks, each a complete
 * bzip2 stream; bzip2 decoders read such concatenated streams as one file.
 */

const CHILD_ENCODER = `
const bzip2 = require(process.argv[1]);
const fs = require('node:fs');
const out = fs.createWriteStream('', { fd: 3 });
const BLOCK = Number(process.argv[2]);
let chunks = [];
let size = 0;
async function flush() {
  const block = Buffer.concat(chunks, size);
  chunks = [];
  size = 0;
  const data = await bzip2.compressAsync(block, { level: 9 });
  if (!out.write(data)) await new Promise((resolve) => out.once('drain', resolve));
}
(async () => {
  let wrote = false;
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= BLOCK) { await flush(); wrote = true; }
  }
  if (size > 0 || !wrote) await flush();
  out.end(() => process.exit(0));
})().catch((error) => { process.stderr.write(String(error && error.stack || error) + '\\n'); process.exit(1); });
`;

export type Bzip2Encoder = 'system' | 'node';

let systemAvailable: boolean | undefined;

/** The encoder to use: the system tool when it runs (probed once), else the binding. */
function defaultBzip2Encoder(): Bzip2Encoder {
  if (systemAvailable === undefined) {
    try {
      execFileSync('bzip2', ['--help'], { stdio: 'ignore', timeout: 5000 });
      systemAvailable = true;
    } catch {
      systemAvailable = false;
    }
  }
  return systemAvailable ? 'system' : 'node';
}

function spawnEncoder(encoder: Bzip2Encoder, blockSize: number) {
  if (encoder === 'system') {
    const child = spawn('bzip2', ['-c', '-9'], { stdio: ['pipe', 'pipe', 'ignore'] });
    return { child, input: child.stdin as Writable, output: child.stdout as Readable };
  }
  const modulePath = createRequire(import.meta.url).resolve('node-bzip2');
  const child = spawn(process.execPath, ['-e', CHILD_ENCODER, modulePath, String(blockSize)], {
    stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  return { child, input: child.stdin as Writable, output: child.stdio[3] as Readable };
}

/**
 * A Duplex that bzip2-compresses what is written to it. Destroying it (the download was
 * abandoned) kills the child; a child that fails makes the stream fail. `blockSize` is the
 * input per stream for the binding encoder.
 */
export function createBzip2Stream(encoder: Bzip2Encoder = defaultBzip2Encoder(), blockSize = 8 * 1024 * 1024): Duplex {
  const { child, input, output } = spawnEncoder(encoder, blockSize);
  const duplex = Duplex.from({ writable: input, readable: output });
  let exited = false;
  child.once('error', (error) => duplex.destroy(error));
  child.once('exit', (code, signal) => {
    exited = true;
    if (code !== 0 && !duplex.destroyed) duplex.destroy(new Error(`bzip2 encoder stopped (${signal ?? code})`));
  });
  duplex.once('close', () => {
    if (!exited) child.kill('SIGKILL');
  });
  return duplex;
}
