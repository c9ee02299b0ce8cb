import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export async function launchChromium(): Promise<Browser> {
  const configured = process.env.CHROMIUM_PATH;
  const executablePath = configured ?? CANDIDATES.find((path) => existsSync(path));
  if (!executablePath || !existsSync(executablePath))
    throw new Error('no Chromium found: `apt-get install -y chromium` (or set CHROMIUM_PATH)');
  // Root in a container has no user namespace for Chromium's sandbox; the page is our own test page.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}
