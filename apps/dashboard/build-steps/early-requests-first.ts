import type { Plugin } from 'vite';

/**
 * Runs one entry (src/early-requests.ts) as a script of its own before the app's: it is small, so it starts
 * the first page's requests while the browser still downloads and compiles the app, whose modules it shares
 * (one instance: the app imports the same file).
 */
export function earlyRequestsFirst(entry: string): Plugin {
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
          (output) => output.type === 'chunk' && output.facadeModuleId === entry,
        );
        if (!early) throw new Error(`no chunk for ${entry}`);
        const script = `<script type="module" crossorigin src="${base}${early.fileName}"></script>`;
        return html.replace('<script type="module"', `${script}\n    <script type="module"`);
      },
    },
  };
}
