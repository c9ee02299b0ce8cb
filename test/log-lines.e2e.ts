import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const LOGGER = pathToFileURL(join(process.cwd(), 'dist', 'libs', 'common', 'src', 'logger.js')).href;
const LINES = 5_000;

/** Runs `script` in a new node process; its stdout, read only after `readAfterMs`, as lines. */
async function stdoutLines(script: string, readAfterMs: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, readAfterMs));
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdout.resume();
  await new Promise((resolve) => child.on('close', resolve));
  return Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
}

/** The service's JSON log lines reach stdout gathered in batches; none is lost when the process exits. */
describe('JSON log lines', () => {
  it('are all written when the process exits at once, through a pipe its reader empties late', async () => {
    const lines = await stdoutLines(
      `import { createLogger } from '${LOGGER}';
       const logger = createLogger('info');
       for (let i = 0; i < ${LINES}; i++) logger.info({ i, filler: 'x'.repeat(200) }, 'line');
       logger.fatal('last words');
       process.exit(1);`,
      500,
    );
    expect(lines).toHaveLength(LINES + 1);
    const parsed = lines.map((line) => JSON.parse(line) as { i?: number; msg: string });
    expect(parsed.slice(0, LINES).map((line) => line.i)).toEqual([...Array(LINES).keys()]);
    expect(parsed[LINES].msg).toBe('last words');
  }, 30_000);
});
