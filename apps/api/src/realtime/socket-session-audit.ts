import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import { InboxSessionValidator } from '../inbox/inbox-session.validator.js';
import { PeriodicTask } from './periodic-task.js';
import type { InboxServer } from './subscriber-presence.js';

/**
 * How often an api process checks the sessions of its open sockets. Deleting a subscriber through the
 * API closes its sockets at once (RealtimePublisher.subscribersDeleted); this catches what changes elsewhere, such as
 * HMAC required by the operator CLI or an integration, within this time.
 */
const AUDIT_INTERVAL_MS = 2_000;

/**
 * Closes the open sockets whose session has ended since their handshake (InboxSessionValidator's
 * rules): two statements per round for all of this process's sockets, whatever their number.
 */
@Injectable()
export class SocketSessionAudit {
  private task?: PeriodicTask;

  constructor(
    private readonly validator: InboxSessionValidator,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  start(server: InboxServer): void {
    this.task = new PeriodicTask(AUDIT_INTERVAL_MS, () => this.audit(server));
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
  }

  private async audit(server: InboxServer): Promise<void> {
    const sockets = [...server.of('/').sockets.values()];
    if (sockets.length === 0) return;
    try {
      const ended = new Set(await this.validator.ended(sockets.map((socket) => socket.data.session)));
      for (const socket of sockets) if (ended.has(socket.data.session)) socket.disconnect(true);
    } catch (error) {
      this.logger.warn({ err: error }, 'open inbox sockets not audited; the next round tries again');
    }
  }
}
