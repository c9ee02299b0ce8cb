// Produces release/: the compiled service plus production dependencies only — exactly what the
// Docker image's runtime stage contains (docker/Dockerfile copies the same layout).
// `--reuse-build` packages the dist/ already built instead of rebuilding it: a rebuild empties
// dist/dashboard while it runs, which pulls the files from under any server started from this tree.
import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';

const run = (command, cwd = '.') => execSync(command, { cwd, stdio: 'inherit' });

rmSync('release', { recursive: true, force: true });
if (!process.argv.includes('--reuse-build')) run('npm run build');
else if (!existsSync('dist/apps/api/src/main.js'))
  throw new Error('--reuse-build: no build in dist/, run npm run build');
mkdirSync('release');
for (const file of ['package.json', 'package-lock.json']) cpSync(file, `release/${file}`);
cpSync('dist', 'release/dist', { recursive: true });
run('npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline', 'release');
