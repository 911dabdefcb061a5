#!/usr/bin/env node
import { keepYoungGenerationSmall } from './storage/young-generation.js';

keepYoungGenerationSmall();
// Imported after the flag is set, so that loading the server already runs with it.
const { runCli } = await import('./cli/cli.js');
runCli(process.argv).catch((error: unknown) => {
  process.stderr.write(`burrow: ${(error as Error).message}\n`);
  process.exit(1);
});
