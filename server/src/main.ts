#!/usr/bin/env node
import { runCli } from './cli/cli.js';

runCli(process.argv).catch((error: unknown) => {
  process.stderr.write(`burrow: ${(error as Error).message}\n`);
  process.exit(1);
});
