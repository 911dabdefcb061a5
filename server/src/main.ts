#!/usr/bin/env node
import v8 from 'node:v8';

/**
 * V8 grows the young generation from 1 MiB per semi-space up to 16 MiB as start-up and the first
 * index build allocate, and never gives it back while the server idles: 30 MiB of an idle
 * server's memory. Keeping it at its initial size costs a few more, cheap, scavenges under
 * load. This flag is read whenever the young generation would grow, so setting it here, before
 * anything allocates much, takes effect. A semi-space size given on the command line or in
 * NODE_OPTIONS (`--max-semi-space-size`, `--semi-space-growth-factor`) is left alone.
 */
function keepYoungGenerationSmall(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (/--(max-semi-space-size|semi-space-growth-factor|max_semi_space_size|semi_space_growth_factor)/.test(given)) return;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

keepYoungGenerationSmall();
// Imported after the flag is set, so that loading the server already runs with it.
const { runCli } = await import('./cli/cli.js');
runCli(process.argv).catch((error: unknown) => {
  process.stderr.write(`burrow: ${(error as Error).message}\n`);
  process.exit(1);
});
