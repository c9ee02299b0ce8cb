import type { Logger } from 'pino';
import type { Role } from '#common';

export interface BootSummary {
  /** Where the service answers, as a person on this machine would type it. */
  url: string;
  role: Role;
  /** The quick start's inbox page for the Development environment (api roles only). */
  inboxDemoUrl?: string;
  /** The operator dashboard's address, when this process serves it. */
  dashboardUrl?: string;
  /** The Development key created by this boot: shown once, never stored in the clear. */
  developmentKey?: string;
  /** While no dashboard user exists: the one-time link that creates the first admin. */
  dashboardSetupUrl?: string;
}

export function developmentKeyLine(key: string): string {
  return `Development API key (shown once, keep it): ${key}`;
}

function dashboardSetupLine(url: string): string {
  return `Dashboard setup link (shown once, valid 24 hours; creates the first admin): ${url}`;
}

/** A listening address as a URL to type: a wildcard address is reached through localhost. */
export function localUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** The few lines a person who just ran `npm start` needs; the logs hold the rest. */
export function bootBanner(summary: BootSummary): string {
  const lines = [`Notification service ready at ${summary.url}`];
  if (summary.role !== 'worker') lines.push(`  API docs     ${summary.url}/api-docs`);
  if (summary.inboxDemoUrl) lines.push(`  Inbox demo   ${summary.inboxDemoUrl}`);
  if (summary.developmentKey) lines.push(`  ${developmentKeyLine(summary.developmentKey)}`);
  if (summary.dashboardUrl) lines.push(`  Dashboard    ${summary.dashboardUrl}`);
  if (summary.dashboardSetupUrl) lines.push(`  ${dashboardSetupLine(summary.dashboardSetupUrl)}`);
  return `\n${lines.join('\n')}\n\n`;
}

/**
 * The end of the boot: a banner in a terminal; for machines (CI, containers, log collectors), JSON
 * lines like every other.
 */
export function announceBoot(logger: Logger, pretty: boolean, summary: BootSummary, details: object): void {
  if (pretty) {
    process.stdout.write(bootBanner(summary));
    return;
  }
  const docs = summary.role === 'worker' ? {} : { apiDocs: `${summary.url}/api-docs` };
  logger.info(
    { ...details, url: summary.url, ...docs, inboxDemo: summary.inboxDemoUrl, dashboard: summary.dashboardUrl },
    'service started',
  );
  // Whatever LOG_LEVEL hides: no later boot can show this key again (nor this link).
  const shown = logger.child({}, { level: 'info' });
  if (summary.developmentKey) shown.info(developmentKeyLine(summary.developmentKey));
  if (summary.dashboardSetupUrl) shown.info(dashboardSetupLine(summary.dashboardSetupUrl));
  // Out now, not with the next batch of lines: whoever started the service is waiting for these.
  logger.flush();
}
