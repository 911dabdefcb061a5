import type { Config } from '../config.js';
import { buildApp } from '../app.js';
import { startIdleTrimmer } from '../storage/memory-trim.js';

/** Builds the app, listens, and shuts down gracefully on SIGINT/SIGTERM. */
export async function serve(config: Config): Promise<void> {
  // The generated first-run password goes straight to the terminal: a quiet log level must not
  // swallow the only copy of it.
  const app = await buildApp(config, {
    onAdminPassword: (password) => process.stdout.write(`created user "admin" with the generated password ${password} (shown once; change it after logging in)\n`),
  });
  let closing = false;
  // Gives memory back once the server goes quiet after a burst of work: the search index's
  // page cache (searches and walks fill it), V8's garbage, malloc's free memory.
  const trimmer = startIdleTrimmer({ release: () => app.services.search.releaseMemory() });
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    trimmer.stop();
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const address = await app.listen({ host: config.address, port: config.port });
  app.log.info(`Burrow serving ${config.root} at ${address}${config.baseURL}/`);
}
