import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { countMessages, createWorkflow, seedTopic, settle, SUBSCRIBER_PREFIX } from './database.js';
import type { Deployment } from './deployment.js';
import { load, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { freePort, sleep, startProcess, waitForHttp, type RunningProcess } from './processes.js';
import { SocketFleet, type FleetConnectResult } from './socket-fleet.js';
import { measureRounds, summarize, type SocketLatency } from './socket-latency.js';

const INBOX_TOPIC_KEY = 'bench-inbox-topic';
const WORKFLOW = 'bench-inbox';
const SESSION_CONCURRENCY = 20;
/** Sockets settle (presence writes, first pings) before the resident memory is read. */
const SETTLE_MS = 3_000;

export interface SocketCeiling extends SocketLatency {
  connect: FleetConnectResult;
  rssMb?: number;
}

export interface InboxResult extends SocketLatency {
  sessions: { count: number; seconds: number; perSecond: number };
  connect: FleetConnectResult;
  /** The api's resident memory with every socket connected and idle. */
  apiRssMb?: number;
  /** Its peak over the whole inbox scenario (sockets, triggers, list load). */
  apiPeakRssMb?: number;
  workerPeakRssMb?: number;
  list: LoadResult;
  /** Sessions the list load takes turns with, and about how many notifications each has. */
  listSessions: number;
  listNotificationsPerSubscriber: number;
}

/**
 * Every socket is a descriptor in the server process (and one per client process): a limit below
 * the socket count fails the connect phase with EMFILE half-way, which would measure nothing.
 */
export function assertOpenFilesLimit(sockets: number): void {
  const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  const limit = !match || match[1] === 'unlimited' ? Infinity : Number(match[1]);
  const needed = sockets + 1_024;
  if (limit < needed)
    throw new Error(`open files limit ${limit} < ${needed} for ${sockets} sockets: run \`ulimit -n ${needed}\` first`);
}

const mb = (bytes?: number) => (bytes === undefined ? undefined : Math.round((bytes / 1024 / 1024) * 10) / 10);
function residentBytes(proc: RunningProcess): number | undefined {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${proc.child.pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : undefined;
}

/**
 * The socket ceiling: the same client processes and sockets against bare socket.io
 * (bench/bare-socketio.ts), which answers 201 and emits one message per room.
 */
export async function bareSocketIo(options: BenchOptions): Promise<SocketCeiling> {
  const port = await freePort();
  const proc = startProcess('bare-socketio', 'dist/bench/bare-socketio.js', {}, port);
  const fleet = SocketFleet.start(options.inboxClientProcesses);
  try {
    await waitForHttp(proc, '/health', 15_000);
    const url = `http://127.0.0.1:${port}`;
    const tokens = Array.from({ length: options.inboxSockets }, (_, i) => String(i));
    const connect = await fleet.connect(url, tokens);
    await sleep(SETTLE_MS);
    const rssMb = mb(residentBytes(proc));
    const rounds = await measureRounds(fleet, options.inboxRounds, options.inboxTopicSize, async (transactionId) => {
      const res = await fetch(`${url}/broadcast?transactionId=${transactionId}&rooms=${options.inboxTopicSize}`, {
        method: 'POST',
      });
      if (res.status !== 201) throw new Error(`bare socket.io broadcast answered ${res.status}`);
    });
    return { connect, rssMb, ...summarize(options.inboxTopicSize, rounds) };
  } finally {
    await fleet.close();
    await proc.stop();
  }
}

export async function createSessions(deployment: Deployment, count: number): Promise<string[]> {
  const me = await deployment.client.request('GET', '/v1/environments/me');
  if (me.status !== 200) throw new Error(`GET /v1/environments/me answered ${me.status}: ${await me.text()}`);
  const { identifier } = (await me.json()) as { identifier: string };
  const tokens = new Array<string>(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      const res = await fetch(`${deployment.client.baseUrl}/v1/inbox/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ applicationIdentifier: identifier, subscriberId: `${SUBSCRIBER_PREFIX}${index + 1}` }),
      });
      const text = await res.text();
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`POST /v1/inbox/session answered ${res.status}: ${text.slice(0, 500)}`);
      const token = (JSON.parse(text) as { data?: { token?: string } }).data?.token;
      if (!token) throw new Error(`POST /v1/inbox/session answered without data.token: ${text.slice(0, 500)}`);
      tokens[index] = token;
    }
  };
  await Promise.all(Array.from({ length: SESSION_CONCURRENCY }, lane));
  return tokens;
}

/** Topic triggers, unmeasured, until each topic member has `count` more in-app notifications. */
async function backfill(deployment: Deployment, topicSize: number, count: number, workflowId: string) {
  const before = await countMessages(deployment.pool, { workflowId }, deployment.scope.environmentId);
  for (let i = 0; i < count; i++) await triggerTopic(deployment, `bench-inbox-fill-${randomUUID()}`);
  const expected = before + count * topicSize;
  const deadline = Date.now() + 120_000;
  while ((await countMessages(deployment.pool, { workflowId }, deployment.scope.environmentId)) < expected) {
    if (Date.now() > deadline) throw new Error(`backfill: ${expected} in-app messages not delivered within 120 s`);
    await sleep(200);
  }
}

async function triggerTopic(deployment: Deployment, transactionId: string): Promise<void> {
  const res = await deployment.client.request('POST', '/v1/events/trigger', {
    name: WORKFLOW,
    to: [{ type: 'Topic', topicKey: INBOX_TOPIC_KEY }],
    transactionId,
    payload: { orderId: 'inbox' },
  });
  if (res.status !== 201) throw new Error(`topic trigger answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  await res.arrayBuffer();
}

/**
 * The inbox on the deployed api: a session and a socket per subscriber, the api's memory with
 * them all connected, the time from a topic trigger's 201 to each member socket's
 * `notification_received` (through the worker and the Redis adapter), then the inbox list under load.
 */
export async function inbox(deployment: Deployment, options: BenchOptions): Promise<InboxResult> {
  const workflow = await createWorkflow(deployment.pool, deployment.scope, deployment.client, WORKFLOW);
  await seedTopic(deployment.pool, deployment.scope, INBOX_TOPIC_KEY, options.inboxTopicSize);
  deployment.resetPeakRss();

  const sessionsStarted = performance.now();
  const tokens = await createSessions(deployment, options.inboxSockets);
  const sessionSeconds = (performance.now() - sessionsStarted) / 1000;

  const fleet = SocketFleet.start(options.inboxClientProcesses);
  try {
    const connect = await fleet.connect(deployment.client.baseUrl, tokens);
    if (connect.connected === 0) throw new Error(`no inbox socket connected: ${connect.firstError}`);
    await sleep(SETTLE_MS);
    deployment.assertAlive();
    const apiRssMb = mb(residentBytes(deployment.api));

    // Before the measured rounds: the members then have a page of notifications each, and the api and
    // the worker have run the path for a while, as a deployed service has (the rounds measure its
    // steady state, not its first minute of JIT compilation).
    await backfill(deployment, options.inboxTopicSize, options.inboxListBackfill, workflow.id);
    // The backfill is setup, like the other scenarios' seeding: its vacuum and checkpoint debt is paid now.
    await settle(deployment.pool);
    const rounds = await measureRounds(
      fleet,
      options.inboxRounds,
      options.inboxTopicSize,
      (transactionId) => triggerTopic(deployment, transactionId),
      () => deployment.cpuWindow(),
    );

    const listed = Math.min(options.inboxTopicSize, 100);
    const first = await fetch(`${deployment.client.baseUrl}/v1/inbox/notifications?limit=10`, {
      headers: { authorization: `Bearer ${tokens[0]}` },
    });
    const page = (await first.json()) as { data?: unknown[] };
    if (first.status !== 200 || !Array.isArray(page.data) || page.data.length === 0)
      throw new Error(
        `GET /v1/inbox/notifications answered ${first.status} with ${JSON.stringify(page).slice(0, 300)}`,
      );
    const list = await load({
      url: `${deployment.client.baseUrl}/v1/inbox/notifications?limit=10`,
      connections: options.feedConnections,
      duration: options.feedDuration,
      warmUpSeconds: options.warmUp,
      runs: options.loadRuns,
      // Each request is another topic member's session, as many browsers would send.
      headersFor: (n) => ({ authorization: `Bearer ${tokens[n % listed]}` }),
    });
    deployment.assertAlive();
    const peak = deployment.peakRss();
    return {
      sessions: { count: tokens.length, seconds: sessionSeconds, perSecond: tokens.length / sessionSeconds },
      connect,
      apiRssMb,
      apiPeakRssMb: mb(peak.apiBytes),
      workerPeakRssMb: mb(peak.workerBytes),
      ...summarize(options.inboxTopicSize, rounds),
      list,
      listSessions: listed,
      listNotificationsPerSubscriber: options.inboxRounds + 1 + options.inboxListBackfill,
    };
  } finally {
    await fleet.close();
  }
}
