import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|svg|json)$/;

/**
 * Writes a .br and a .gz beside each asset of the build, once at build time, which the api's static file server
 * sends to a client that accepts them: the service compresses no response on the fly.
 */
export function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    writeBundle: {
      sequential: true,
      handler(options, bundle) {
        const outDir = options.dir ?? '';
        for (const name of Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file))) {
          const content = readFileSync(join(outDir, name));
          writeFileSync(join(outDir, `${name}.gz`), gzipSync(content, { level: 9 }));
          writeFileSync(join(outDir, `${name}.br`), brotliCompressSync(content));
        }
      },
    },
  };
}
