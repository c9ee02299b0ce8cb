import type { WebhookSend } from '#dal';

/**
 * The deliveries of one endpoint waiting to be sent by this process, oldest event first. A delivery
 * already waiting or being sent is not taken twice (the sweeper may hand it over again), and the lane
 * holds at most `capacity`, so a slow receiver's backlog stays in the database, not in memory.
 */
export class EndpointLane {
  private readonly waiting = new Map<string, WebhookSend>();
  private readonly sending = new Set<string>();
  /** The loop sending this lane's deliveries, while there is one. */
  running?: Promise<void>;

  constructor(
    /** The endpoint as last read: a rotated secret or a new URL applies from the next batch on. */
    public endpoint: WebhookSend['endpoint'],
    private readonly capacity: number,
  ) {}

  get idle(): boolean {
    return this.waiting.size === 0 && this.sending.size === 0;
  }

  /** Queues the sends; returns those the lane had no room for. */
  add(sends: WebhookSend[]): WebhookSend[] {
    const refused: WebhookSend[] = [];
    for (const send of sends) {
      const id = send.delivery.id;
      if (this.waiting.has(id) || this.sending.has(id)) continue;
      if (this.waiting.size + this.sending.size >= this.capacity) refused.push(send);
      else this.waiting.set(id, send);
    }
    if (sends.length > 0) this.endpoint = sends[sends.length - 1].endpoint;
    return refused;
  }

  /** The oldest waiting sends (delivery ids are time-ordered), marked as being sent. */
  take(limit: number): WebhookSend[] {
    const batch = [...this.waiting.values()]
      .sort((a, b) => (a.delivery.id < b.delivery.id ? -1 : a.delivery.id > b.delivery.id ? 1 : 0))
      .slice(0, limit);
    for (const send of batch) {
      this.waiting.delete(send.delivery.id);
      this.sending.add(send.delivery.id);
    }
    return batch;
  }

  /** The batch's sends are written: no longer the lane's. */
  settled(batch: WebhookSend[]): void {
    for (const send of batch) this.sending.delete(send.delivery.id);
  }

  /** Everything still waiting, removed from the lane. */
  drain(): WebhookSend[] {
    const rest = [...this.waiting.values()];
    this.waiting.clear();
    return rest;
  }
}
