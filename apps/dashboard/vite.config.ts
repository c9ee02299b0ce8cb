import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = fileURLToPath(new URL('../../dist/dashboard', import.meta.url));
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

/**
 * Writes a .br and a .gz beside each asset, once at build time, which the api's static file server sends to a
 * client that accepts them: the service compresses no response on the fly.
 */
function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    closeBundle() {
      const assets = join(OUT_DIR, 'assets');
      for (const name of readdirSync(assets).filter((file) => COMPRESSIBLE.test(file))) {
        const content = readFileSync(join(assets, name));
        writeFileSync(join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(content));
      }
    },
  };
}

const EARLY_ENTRY = fileURLToPath(new URL('src/early-requests.ts', import.meta.url));

/**
 * Runs src/early-requests.ts as a script of its own, before the app's: it is small, so it starts the first
 * page's requests while the browser still downloads and compiles the app, whose modules it shares (one
 * instance: the app imports the same file).
 */
function earlyRequestsFirst(): Plugin {
  let base = '/';
  return {
    name: 'early-requests-first',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const early = Object.values(bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.facadeModuleId === EARLY_ENTRY,
        );
        if (!early) throw new Error('no chunk for src/early-requests.ts');
        const script = `<script type="module" crossorigin src="${base}${early.fileName}"></script>`;
        return html.replace('<script type="module"', `${script}\n    <script type="module"`);
      },
    },
  };
}

// JSX through esbuild's automatic runtime (Vite's default transform): no Babel, no Fast Refresh plugin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  esbuild: { jsx: 'automatic' },
  plugins: [earlyRequestsFirst(), precompressAssets()],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    // Names carry a content hash, so the api can cache them for a year.
    assetsDir: 'assets',
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      input: { index: fileURLToPath(new URL('index.html', import.meta.url)), 'early-requests': EARLY_ENTRY },
      // Radix marks its modules "use client" for React Server Components, which a single-page app has none of.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    // `npx vite --config apps/dashboard/vite.config.ts` beside `npm start`: the API on the same origin.
    proxy: { '/v1': 'http://localhost:3000', '/health': 'http://localhost:3000', '/metrics': 'http://localhost:3000' },
  },
});
