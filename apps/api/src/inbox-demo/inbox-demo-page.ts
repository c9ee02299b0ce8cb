import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { EnvironmentRepository } from '#dal';

const PAGE_DIR = new URL('./page/', import.meta.url);
/** The subscriber the quick start uses; any id works in the page's URL. */
const EXAMPLE_SUBSCRIBER_ID = 'demo-user';
const DEMO_ENVIRONMENT = 'Development';

/** socket.io's browser build, shipped inside the server package (its exports do not name the file). */
function socketIoClientPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('socket.io')), '..', 'client-dist', 'socket.io.min.js');
}

/**
 * The quick start's inbox page: static files that start an inbox session as any browser does, so the
 * page can do nothing the public inbox API does not already allow. Served for Development
 * environments only: production users get a product's own inbox, not this one.
 */
@Injectable()
export class InboxDemoPage {
  readonly script = readFileSync(new URL('inbox-demo.js', PAGE_DIR), 'utf8');
  readonly socketClient = readFileSync(socketIoClientPath(), 'utf8');
  private readonly html = readFileSync(new URL('inbox-demo.html', PAGE_DIR), 'utf8');

  constructor(private readonly environments: EnvironmentRepository) {}

  async page(applicationIdentifier: string): Promise<string> {
    const environment = await this.environments.findEnvironmentByIdentifier(applicationIdentifier);
    if (environment?.name !== DEMO_ENVIRONMENT)
      throw new DomainError('NOT_FOUND', 'The inbox demo is served for Development environments only');
    return this.html;
  }

  /** The page of the default organization's Development environment, for the boot banner. */
  async exampleUrl(baseUrl: string): Promise<string | undefined> {
    const environment = await this.environments.findEnvironmentByName(DEMO_ENVIRONMENT);
    if (!environment) return undefined;
    const query = new URLSearchParams({
      applicationIdentifier: environment.identifier,
      subscriberId: EXAMPLE_SUBSCRIBER_ID,
    });
    return `${baseUrl}/inbox-demo?${query.toString()}`;
  }
}
