// Produces release/: the compiled service plus production dependencies only — exactly what the
// Docker image's runtime stage contains (docker/Dockerfile copies the same layout).
import { execSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';

const run = (command, cwd = '.') => execSync(command, { cwd, stdio: 'inherit' });

rmSync('release', { recursive: true, force: true });
run('npm run build');
mkdirSync('release');
for (const file of ['package.json', 'package-lock.json']) cpSync(file, `release/${file}`);
cpSync('dist', 'release/dist', { recursive: true });
run('npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline', 'release');
