#!/usr/bin/env node
import { execWithOneMallocArena, limitMallocArenas } from './storage/memory-trim.js';
import { keepYoungGenerationSmall } from './storage/young-generation.js';

// The server (the default command) starts again in place with one malloc arena, before it has
// done anything; other commands are short-lived and set the limit from inside only.
const command = process.argv[2];
if (command === undefined || command === 'serve' || command.startsWith('-')) execWithOneMallocArena();
limitMallocArenas();
keepYoungGenerationSmall();
// Imported after the flag is set, so that loading the server already runs with it.
const { runCli } = await import('./cli/cli.js');
runCli(process.argv).catch((error: unknown) => {
  process.stderr.write(`burrow: ${(error as Error).message}\n`);
  process.exit(1);
});
