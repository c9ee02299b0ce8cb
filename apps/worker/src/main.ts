import { runService } from '#api/main.js';

/** The worker entry point: the same service with only the queue consumers (and /health). */
runService('worker').catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
