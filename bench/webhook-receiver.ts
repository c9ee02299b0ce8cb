import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RECEIVER_COMMAND } from './cpu-usage.js';

/**
 * The webhooks part's receiver, run as a process of its own (as a customer's receiver would be): on
 * the bench's own event loop, beside the load generator's connections, an event's arrival would be
 * noted late by however long that loop was busy. It answers 204 at once, notes each event's id,
 * arrival and timestamp, and answers the parent's questions over IPC. Its command name lets the
 * bench's CPU accounting count it apart.
 */
process.title = RECEIVER_COMMAND;

export interface ArrivalsQuestion {
  since: number;
}

export interface ArrivalsAnswer {
  /** Events whose timestamp is at or after `since`: all of them, and distinct ids. */
  all: number;
  distinct: number;
  /** The latest arrival among them (ms since the epoch), 0 when none. */
  lastAt: number;
  /** Commit (the event's timestamp) → arrival, ms. */
  latencyP50Ms?: number;
  latencyP99Ms?: number;
}

const ids: string[] = [];
const arrivedAt: number[] = [];
const timestamps: number[] = [];

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
    ids.push(String(request.headers['webhook-id']));
    arrivedAt.push(at);
    timestamps.push(Date.parse(event.timestamp));
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

function arrivalsSince({ since }: ArrivalsQuestion): ArrivalsAnswer {
  const distinct = new Set<string>();
  const latencies: number[] = [];
  let lastAt = 0;
  for (let index = 0; index < ids.length; index++) {
    if (timestamps[index] < since) continue;
    distinct.add(ids[index]);
    latencies.push(arrivedAt[index] - timestamps[index]);
    lastAt = Math.max(lastAt, arrivedAt[index]);
  }
  latencies.sort((a, b) => a - b);
  return {
    all: latencies.length,
    distinct: distinct.size,
    lastAt,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
  };
}

process.on('message', (question: ArrivalsQuestion) => process.send!(arrivalsSince(question)));
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
