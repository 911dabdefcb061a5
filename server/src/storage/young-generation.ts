import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

const FLAG = '--semi-space-growth-factor=1';

let kept = false;

/**
 * V8 grows the young generation from 1 MiB per semi-space up to 16 MiB as start-up and the first
 * index build allocate, and never gives it back while the server idles: 30 MiB of an idle
 * server's memory. Keeping it at its initial size costs a few more, cheap, scavenges under
 * load. The flag is read whenever the young generation would grow, so setting it early, before
 * anything allocates much, takes effect. A semi-space size given on the command line or in
 * NODE_OPTIONS (`--max-semi-space-size`, `--semi-space-growth-factor`) is left alone.
 */
export function keepYoungGenerationSmall(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (/--(max-semi-space-size|semi-space-growth-factor|max_semi_space_size|semi_space_growth_factor)/.test(given)) return;
  v8.setFlagsFromString(FLAG);
  kept = true;
}

/**
 * A starting worker thread makes Node apply V8's flags from the command line again, which
 * resets the flag above for the whole process: the next burst of work (an lz4 archive, a big
 * listing) then grows the young generation to its maximum for good. The flag is set again as
 * soon as the worker runs. Returns the worker.
 */
export function keepYoungGenerationSmallAfter(worker: Worker): Worker {
  if (kept) worker.once('online', () => v8.setFlagsFromString(FLAG));
  return worker;
}
