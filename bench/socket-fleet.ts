import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FleetCommand, FleetReply } from './socket-clients.js';
import { adoptChild, ROOT } from './processes.js';

/** Concurrent handshakes per client process while connecting (a burst of 10,000 SYNs overflows the backlog). */
const CONNECT_CONCURRENCY = 50;
const CONNECT_TIMEOUT_MS = 60_000;

export interface FleetConnectResult {
  sockets: number;
  connected: number;
  failed: number;
  firstError?: string;
  seconds: number;
}

export interface FleetRound {
  /** Arrival times (ms since the epoch) of the watched notification, one per socket reached. */
  arrivals: number[];
  expected: number;
  duplicates: number;
  wrongRecipients: number;
  others: number;
  disconnects: number;
}

type Reply<T extends FleetReply['type']> = Extract<FleetReply, { type: T }>;

class ClientProcess {
  private readonly waiting = new Map<string, ((reply: FleetReply) => void)[]>();
  /** The transaction whose "done" counts: one from an earlier round that timed out is dropped. */
  watching?: string;
  readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    child.on('message', (reply: FleetReply) => {
      if (reply.type === 'done' && reply.transactionId !== this.watching) return;
      const queue = this.waiting.get(reply.type);
      queue?.shift()?.(reply);
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  send(command: FleetCommand): void {
    this.child.send(command);
  }

  next<T extends FleetReply['type']>(type: T, timeoutMs: number): Promise<Reply<T>> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(type) ?? [];
      this.waiting.set(type, queue);
      const waiter = (reply: FleetReply) => {
        clearTimeout(timer);
        resolve(reply as Reply<T>);
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(new Error(`socket client: no "${type}" within ${timeoutMs} ms`));
      }, timeoutMs);
      queue.push(waiter);
    });
  }
}

/**
 * Inbox sockets spread over several load-generator processes (bench/socket-clients.ts), so the
 * clients' own event loops are not one process's queue. Socket i goes to process i % processes.
 */
export class SocketFleet {
  private done: Promise<boolean>[] = [];

  private constructor(private readonly clients: ClientProcess[]) {}

  static start(processes: number): SocketFleet {
    const clients = Array.from({ length: processes }, () => {
      const child = fork(join(ROOT, 'dist/bench/socket-clients.js'), [], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      adoptChild(child);
      return new ClientProcess(child);
    });
    return new SocketFleet(clients);
  }

  /** Opens one socket per token (token i is socket i); resolves when every handshake ended. */
  async connect(url: string, tokens: string[]): Promise<FleetConnectResult> {
    const started = performance.now();
    const replies = this.clients.map((client, p) => {
      const own = tokens.filter((_, i) => i % this.clients.length === p);
      const reply = client.next('connected', CONNECT_TIMEOUT_MS * 4);
      client.send({
        type: 'connect',
        url,
        tokens: own,
        concurrency: CONNECT_CONCURRENCY,
        timeoutMs: CONNECT_TIMEOUT_MS,
      });
      return reply;
    });
    const results = await Promise.all(replies);
    return {
      sockets: tokens.length,
      connected: results.reduce((sum, r) => sum + r.connected, 0),
      failed: results.reduce((sum, r) => sum + r.failed, 0),
      firstError: results.find((r) => r.firstError)?.firstError,
      seconds: (performance.now() - started) / 1000,
    };
  }

  /**
   * Arms every process for one notification, meant for sockets 0..members-1, before it is
   * triggered; `collect` then waits for it (at most timeoutMs from now).
   */
  watch(transactionId: string, members: number, timeoutMs: number): void {
    const processes = this.clients.length;
    this.done = this.clients.map((client, p) => {
      const local: number[] = [];
      for (let i = p; i < members; i += processes) local.push(Math.floor(i / processes));
      client.watching = transactionId;
      const done = client.next('done', timeoutMs).then(
        () => true,
        () => false,
      );
      client.send({ type: 'watch', transactionId, members: local });
      return done;
    });
  }

  /** Waits until every member socket got the watched notification (or the timeout), then gathers the arrivals. */
  async collect(): Promise<FleetRound & { complete: boolean }> {
    const complete = (await Promise.all(this.done)).every(Boolean);
    const reports = await Promise.all(
      this.clients.map((client) => {
        const reply = client.next('report', 30_000);
        client.send({ type: 'report' });
        return reply;
      }),
    );
    const sum = (pick: (r: Reply<'report'>) => number) => reports.reduce((total, r) => total + pick(r), 0);
    return {
      complete,
      arrivals: reports.flatMap((r) => r.arrivals),
      expected: sum((r) => r.expected),
      duplicates: sum((r) => r.duplicates),
      wrongRecipients: sum((r) => r.wrongRecipients),
      others: sum((r) => r.others),
      disconnects: sum((r) => r.disconnects),
    };
  }

  async close(): Promise<void> {
    for (const client of this.clients) {
      if (client.child.connected) client.send({ type: 'close' });
    }
    const killer = setTimeout(() => this.clients.forEach((client) => client.child.kill('SIGKILL')), 10_000);
    await Promise.all(this.clients.map((client) => client.exited));
    clearTimeout(killer);
  }
}
