import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { earlyRequestsFirst } from './build-steps/early-requests-first.js';
import { keepPreviousBuild } from './build-steps/keep-previous-build.js';
import { precompressAssets } from './build-steps/precompress-assets.js';

const EARLY_ENTRY = fileURLToPath(new URL('src/early-requests.ts', import.meta.url));

// JSX through esbuild's automatic runtime (Vite's default transform): no Babel, no Fast Refresh plugin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  esbuild: { jsx: 'automatic' },
  plugins: [earlyRequestsFirst(EARLY_ENTRY), precompressAssets(), keepPreviousBuild()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    // The previous build's chunks stay for the dashboards still open on it (keep-previous-build.ts).
    emptyOutDir: false,
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
