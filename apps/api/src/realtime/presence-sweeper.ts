import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { RemoteSocket } from 'socket.io';
import { AppConfig, Clock, LOGGER, newId } from '#common';
import { ApiProcessRepository, SubscriberPresenceRepository } from '#dal';
import { PeriodicTask } from './periodic-task.js';
import { CLUSTER_REQUEST_TIMEOUT_MS } from './socket-adapter.js';
import type { InboxServer, InboxSocketData } from './subscriber-presence.js';

/** Subscribers settled per statement; a sweep goes on until a dead process holds none. */
const SWEEP_BATCH = 1_000;

/**
 * Presence that outlives a crashed api process. Every api process has an id for this boot, records
 * a heartbeat in the database, and its sockets mark their subscribers online as held by it. A
 * process killed outright (kill -9, out of memory, power loss) runs no shutdown; any other api
 * process then finds the subscribers held by a process without a recent heartbeat, asks every
 * process (the adapter's fetchSockets) whether their rooms still have a socket, and marks offline
 * those without one; the others stay online, held by the process that has their socket, so no
 * reader sees a subscriber with an open socket go offline. Presence set through the API has no
 * holder and no sweep touches it.
 */
@Injectable()
export class PresenceSweeper {
  readonly processId = newId();
  private task?: PeriodicTask;

  constructor(
    private readonly processes: ApiProcessRepository,
    private readonly presence: SubscriberPresenceRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The first heartbeat before any socket is accepted, so no sweep elsewhere takes this process for dead. */
  async start(server: InboxServer): Promise<void> {
    await this.heartbeat();
    this.task = new PeriodicTask(this.config.presenceSweepIntervalMs, () => this.tick(server));
    this.task.start();
  }

  /** Graceful stop, after this process's own subscribers were settled: its heartbeat row goes. */
  async stop(): Promise<void> {
    await this.task?.stop();
    await this.processes.remove(this.processId).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'api process heartbeat not removed at shutdown');
    });
  }

  private async tick(server: InboxServer): Promise<void> {
    await this.heartbeat();
    try {
      await this.sweep(server);
    } catch (error) {
      // The next tick tries again: the adapter stops waiting for a dead process after its own timeout.
      this.logger.warn({ err: error }, 'presence of dead api processes not swept');
    }
  }

  private async heartbeat(): Promise<void> {
    await this.processes.heartbeat(this.processId, this.config.presenceStaleAfterMs).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'api process heartbeat not recorded');
    });
  }

  private async sweep(server: InboxServer): Promise<void> {
    for (;;) {
      const held = await this.presence.onlineOnDeadProcesses(this.config.presenceStaleAfterMs, SWEEP_BATCH);
      if (held.length === 0) return;
      const sockets: RemoteSocket<never, InboxSocketData>[] = await server
        .timeout(CLUSTER_REQUEST_TIMEOUT_MS)
        .in(held.map((hold) => hold.id))
        .fetchSockets();
      const holders = new Map(sockets.map((socket) => [socket.data.session.subscriberRowId, socket.data.processId]));
      await this.presence.settleOnlineOnDeadProcesses(
        held.map((hold) => ({ ...hold, holder: holders.get(hold.id) })),
        this.clock.now(),
      );
      this.logger.info(
        { offline: held.filter((hold) => !holders.has(hold.id)).length, kept: holders.size },
        'presence left by dead api processes settled',
      );
      // Another batch only after progress: a batch kept whole may be held by live processes that
      // cannot heartbeat right now, and would be found again at once.
      if (held.length < SWEEP_BATCH || holders.size === held.length) return;
    }
  }
}
