import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface InboxPageOptions {
  /** The service's base URL: the page's client calls its HTTP API and its socket there. */
  serviceUrl: string;
  applicationIdentifier: string;
  subscriberId: string;
}

export interface InboxPage {
  url: string;
  /** How many times the page itself was requested: a reload would show as a second request. */
  pageLoads(): number;
  close(): Promise<void>;
}

/**
 * Novu's Inbox UI (`NovuUI` from `@novu/js/ui`, the code behind `<Inbox />`) bundled for the browser,
 * so the page renders what a product embedding the Inbox shows its users.
 */
async function bundleInboxUi(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./inbox-ui.entry.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'NovuInbox',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

function pageHtml(options: InboxPageOptions): string {
  const novuOptions = {
    applicationIdentifier: options.applicationIdentifier,
    subscriber: options.subscriberId,
    apiUrl: options.serviceUrl,
    socketUrl: options.serviceUrl,
  };
  // JSON inside a script element: "<" escaped so no value can close the element.
  const json = JSON.stringify(novuOptions).replace(/</g, '\\u003c');
  return `<!doctype html>
<html>
  <head><meta charset="utf-8"><title>Inbox</title></head>
  <body>
    <div id="inbox"></div>
    <script src="/inbox-ui.js"></script>
    <script>
      const ui = new NovuInbox.NovuUI({ options: ${json} });
      ui.mountComponent({ name: 'Inbox', element: document.getElementById('inbox') });
    </script>
  </body>
</html>`;
}

/** Serves the page and its bundle on 127.0.0.1, another origin than the service, as a product's site is. */
export async function startInboxPage(options: InboxPageOptions): Promise<InboxPage> {
  const bundle = await bundleInboxUi();
  const html = pageHtml(options);
  let loads = 0;
  const server: Server = createServer((request, response) => {
    if (request.url === '/') {
      loads += 1;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (request.url === '/inbox-ui.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else if (request.url === '/favicon.ico') {
      response.writeHead(204).end();
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    pageLoads: () => loads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
