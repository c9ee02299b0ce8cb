import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Plugin } from 'vite';

/** Beside the assets, not among them: the api serves only the assets folder. */
const RECORD = 'assets-of-last-build.json';

/** The files the last build wrote; without its record, every file there (none is known to be older). */
function assetsOfLastBuild(outDir: string): string[] {
  const record = join(outDir, RECORD);
  if (existsSync(record)) return JSON.parse(readFileSync(record, 'utf8')) as string[];
  return existsSync(join(outDir, 'assets')) ? readdirSync(join(outDir, 'assets')) : [];
}

/**
 * Keeps the previous build's assets beside the new ones, and deletes older ones: a dashboard left open across
 * a rebuild or a deploy loads its pages' chunks by the names its script knows. Needs `emptyOutDir: false`.
 */
export function keepPreviousBuild(): Plugin {
  return {
    name: 'keep-previous-build',
    apply: 'build',
    writeBundle: {
      sequential: true,
      handler(options, bundle) {
        const outDir = options.dir ?? '';
        const assets = join(outDir, 'assets');
        const built = Object.keys(bundle)
          .filter((file) => file.startsWith('assets/'))
          .map((file) => basename(file));
        const kept = new Set(
          [...built, ...assetsOfLastBuild(outDir)].flatMap((file) => [file, `${file}.gz`, `${file}.br`]),
        );
        for (const file of readdirSync(assets)) if (!kept.has(file)) rmSync(join(assets, file));
        writeFileSync(join(outDir, RECORD), JSON.stringify(built));
      },
    },
  };
}
