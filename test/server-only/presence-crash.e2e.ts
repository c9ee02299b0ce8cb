import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SystemClock } from '#common';
import { connectInbox, type RecordedSocket } from '../support/inbox-socket.js';
import {
  apiCaller,
  ensureBuilt,
  freePort,
  startService,
  waitForHealthy,
  type ServiceProcess,
} from '../support/service-process.js';
import { emptyServerDatabase, withAdminClient } from '../support/test-database.js';
import type { Body } from '../support/untyped-json.js';
import { waitFor } from '../support/wait.js';

const API_KEY = 'presence-test-key-0123456789';
const ENCRYPTION_KEY = 'e'.repeat(64);
const SWEEP_INTERVAL_MS = 300;
const STALE_AFTER_MS = 1_000;

/**
 * Two api processes on one PostgreSQL database with a short heartbeat; api A is killed outright
 * (no shutdown runs), and api B's sweep settles the presence A's sockets had set.
 */
describe.each([
  { transport: 'redis', redisUrl: 'redis://127.0.0.1:6379' },
  { transport: 'postgres', redisUrl: undefined },
])('presence after an api process crashes ($transport)', ({ transport, redisUrl }) => {
  const database = emptyServerDatabase(`presence_${transport}`);
  const processes: ServiceProcess[] = [];
  const sockets: RecordedSocket[] = [];
  let apiA: string;
  let apiB: string;

  const call = apiCaller(API_KEY);
  const createSubscriber = async (subscriberId: string) => {
    const created = await call('POST', `${apiB}/v2/subscribers`, { subscriberId });
    expect(created.status).toBe(201);
    return created.body;
  };
  const socketTo = async (api: string, subscriber: Body) => {
    const recorded = await connectInbox(api, ENCRYPTION_KEY, new SystemClock(), subscriber);
    sockets.push(recorded);
    return recorded;
  };
  const presenceOf = async (subscriberId: string) => {
    const got = await call('GET', `${apiB}/v2/subscribers/${subscriberId}`);
    expect(got.status).toBe(200);
    return { isOnline: got.body.isOnline as boolean, lastOnlineAt: got.body.lastOnlineAt as string | null };
  };
  /** The api process a subscriber's row names as holding its socket (null: none, or set through the API). */
  const holderOf = (subscriberId: string) =>
    withAdminClient(database.url, async (client) => {
      const result = await client.query<{ online_process_id: string | null }>(
        'SELECT online_process_id FROM subscribers WHERE subscriber_id = $1',
        [subscriberId],
      );
      return result.rows[0].online_process_id;
    });

  beforeAll(async () => {
    ensureBuilt();
    await database.create();
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY,
      API_KEY,
      QUEUE_PREFIX: `presence-${randomBytes(4).toString('hex')}`,
      RATE_LIMIT_ENABLED: 'false',
      PRESENCE_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS),
      PRESENCE_STALE_AFTER_MS: String(STALE_AFTER_MS),
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    };
    // One after the other: the first boot seeds the database.
    const [portA, portB] = [await freePort(), await freePort()];
    processes.push(startService({ ...env, ROLE: 'api' }, portA));
    await waitForHealthy(processes[0], 60_000);
    processes.push(startService({ ...env, ROLE: 'api' }, portB));
    await waitForHealthy(processes[1], 60_000);
    apiA = `http://127.0.0.1:${portA}`;
    apiB = `http://127.0.0.1:${portB}`;
  }, 120_000);

  afterAll(async () => {
    for (const recorded of sockets) recorded.close();
    for (const service of processes) await service.stop('SIGKILL');
    await database.drop();
  });

  it('after kill -9 of api A its subscribers go offline, one with a socket on B stays online, API-set presence stays', async () => {
    const onlyA = await createSubscriber(`only-a-${transport}`);
    const both = await createSubscriber(`both-${transport}`);
    const apiSet = await createSubscriber(`api-set-${transport}`);

    await socketTo(apiA, onlyA);
    await waitFor(async () => (await holderOf(`only-a-${transport}`)) !== null, { description: 'only-a online' });
    const processA = await holderOf(`only-a-${transport}`);
    // B first, then A: the last socket to open names its process, so the row points at the one that dies.
    await socketTo(apiB, both);
    await waitFor(async () => (await holderOf(`both-${transport}`)) !== null, { description: 'both online on B' });
    const processB = await holderOf(`both-${transport}`);
    expect(processB).not.toBe(processA);
    await socketTo(apiA, both);
    await waitFor(async () => (await holderOf(`both-${transport}`)) === processA, { description: 'both held by A' });
    await socketTo(apiA, apiSet);
    await waitFor(async () => (await holderOf(`api-set-${transport}`)) === processA, { description: 'api-set on A' });
    const patched = await call('PATCH', `${apiB}/v1/subscribers/api-set-${transport}/online-status`, {
      isOnline: true,
    });
    expect(patched.status).toBe(200);
    expect(await holderOf(`api-set-${transport}`)).toBeNull();
    expect((await presenceOf(`only-a-${transport}`)).isOnline).toBe(true);

    const killedAt = Date.now();
    expect(await processes[0].stop('SIGKILL')).toBeNull();

    // Watched the whole time: the subscriber with a socket on B is never seen offline.
    const seenForBoth: boolean[] = [];
    await waitFor(
      async () => {
        seenForBoth.push((await presenceOf(`both-${transport}`)).isOnline);
        return !(await presenceOf(`only-a-${transport}`)).isOnline;
      },
      // The threshold and a sweep, plus the adapter's own wait for the dead process's answer.
      { timeoutMs: 30_000, intervalMs: 100, description: 'only-a offline after the kill' },
    );
    const elapsed = Date.now() - killedAt;
    expect(seenForBoth.length).toBeGreaterThan(0);
    expect(seenForBoth.every(Boolean)).toBe(true);

    const offline = await presenceOf(`only-a-${transport}`);
    expect(Date.parse(offline.lastOnlineAt!)).toBeGreaterThanOrEqual(killedAt);
    expect(await holderOf(`only-a-${transport}`)).toBeNull();
    expect(await presenceOf(`both-${transport}`)).toMatchObject({ isOnline: true });
    expect(await holderOf(`both-${transport}`)).toBe(processB);
    expect(await presenceOf(`api-set-${transport}`)).toMatchObject({ isOnline: true });
    expect(await holderOf(`api-set-${transport}`)).toBeNull();
    // Redis counts the processes listening, so the sweep needs no more than the threshold and one interval.
    if (transport === 'redis') expect(elapsed).toBeLessThan(STALE_AFTER_MS + SWEEP_INTERVAL_MS + 2_000);

    // Later sweeps leave them so.
    await new Promise((resolve) => setTimeout(resolve, 3 * SWEEP_INTERVAL_MS));
    expect((await presenceOf(`both-${transport}`)).isOnline).toBe(true);
    expect((await presenceOf(`api-set-${transport}`)).isOnline).toBe(true);
  }, 60_000);

  it('a graceful stop removes the heartbeat row, and a kill leaves a stale one that the next heartbeat drops', async () => {
    const rows = () =>
      withAdminClient(database.url, async (client) => {
        const result = await client.query<{ id: string }>('SELECT id FROM api_processes');
        return result.rows.map((row) => row.id);
      });
    // A's row (killed) is gone once it is older than the threshold; B's is there.
    await waitFor(async () => (await rows()).length === 1, { description: 'only B heartbeating' });
    expect(await processes[1].stop()).toBe(0);
    expect(await rows()).toEqual([]);
  }, 30_000);
});
