import { Injectable } from '@nestjs/common';
import type { InboxServer } from './subscriber-presence.js';

/** Ends the open sockets of subscribers, on every api process, for the modules that delete them. */
@Injectable()
export class InboxSocketSessions {
  private server?: InboxServer;

  /** The api's socket server, once it runs; without one (a worker) there is no socket to close. */
  useServer(server: InboxServer | undefined): void {
    this.server = server;
  }

  /** The sockets in the subscribers' rooms close, here and (through the adapter) on the other api processes. */
  end(subscriberRowIds: string[]): void {
    if (subscriberRowIds.length > 0) this.server?.in(subscriberRowIds).disconnectSockets(true);
  }
}
