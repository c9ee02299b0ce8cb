import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import { newId } from '#common';
import { apiProcesses, subscribers } from '#dal';
import { PresenceSweeper } from '#api/realtime/presence-sweeper.js';
import { createSubscriber } from './support/builders.js';
import { connected, openInboxSocket, sessionTokenFor, type RecordedSocket } from './support/inbox-socket.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';
import { sleep, waitFor } from './support/wait.js';

const SWEEP_INTERVAL_MS = 200;

/**
 * The presence sweep in one process (the embedded database's case too): a subscriber row held by a
 * process that never heartbeats stands for one whose api process crashed. Several processes and a
 * real kill -9: test/server-only/presence-crash.e2e.ts.
 */
describe('presence sweep of dead api processes', () => {
  let t: TestApp;
  let url: string;
  const open: RecordedSocket[] = [];

  const socketFor = async (subscriber: Body) => {
    const token = sessionTokenFor(TEST_ENCRYPTION_KEY, t.clock, subscriber);
    const recorded = openInboxSocket(url, token);
    open.push(recorded);
    await connected(recorded);
  };
  const rowOf = async (subscriber: Body) => {
    const [row] = await t.db
      .select({ isOnline: subscribers.isOnline, holder: subscribers.onlineProcessId, version: subscribers.version })
      .from(subscribers)
      .where(eq(subscribers.id, subscriber._id as string));
    return row;
  };
  const heldBy = (subscriber: Body, processId: string) =>
    t.db
      .update(subscribers)
      .set({ isOnline: true, onlineProcessId: processId })
      .where(eq(subscribers.id, subscriber._id as string));

  beforeAll(async () => {
    t = await startTestApp({
      env: { PRESENCE_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS), PRESENCE_STALE_AFTER_MS: '400' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = await t.app.getUrl();
  });

  afterAll(async () => {
    for (const recorded of open) recorded.close();
    await t.close();
  });

  it('a socket marks its subscriber online as held by this process, which heartbeats', async () => {
    const subscriber = await createSubscriber(t);
    await socketFor(subscriber);
    const processId = t.app.get(PresenceSweeper).processId;
    await waitFor(async () => (await rowOf(subscriber)).holder === processId, { description: 'held by this process' });
    const beats = await t.db.select().from(apiProcesses).where(eq(apiProcesses.id, processId));
    expect(beats).toHaveLength(1);
  });

  it('a subscriber held by a dead process goes offline; one whose socket is here stays online, now held by this process', async () => {
    const left = await createSubscriber(t);
    const stillConnected = await createSubscriber(t);
    await socketFor(stillConnected);
    const processId = t.app.get(PresenceSweeper).processId;
    await waitFor(async () => (await rowOf(stillConnected)).holder === processId, { description: 'connected' });
    const dead = newId();
    // The sweep may run as soon as the rows name the dead holder.
    const before = t.clock.now().getTime();
    await heldBy(left, dead);
    await heldBy(stillConnected, dead);
    const versionBefore = (await rowOf(stillConnected)).version;

    await waitFor(async () => (await rowOf(left)).isOnline === false, { description: 'left offline' });
    expect(await rowOf(left)).toMatchObject({ isOnline: false, holder: null });
    const got = await t.api('get', `/v2/subscribers/${left.subscriberId as string}`);
    expect(got.body).toMatchObject({ isOnline: false });
    expect(Date.parse(got.body.lastOnlineAt as string)).toBeGreaterThanOrEqual(before);

    await waitFor(async () => (await rowOf(stillConnected)).holder === processId, { description: 'taken over' });
    // Kept online without a visible change: the version (Novu's __v) does not move.
    expect(await rowOf(stillConnected)).toMatchObject({ isOnline: true, version: versionBefore });
  });

  it('presence set through the API is never swept', async () => {
    const subscriber = await createSubscriber(t);
    const patched = await t
      .api('patch', `/v1/subscribers/${subscriber.subscriberId as string}/online-status`)
      .send({ isOnline: true });
    expect(patched.status).toBe(200);
    await sleep(4 * SWEEP_INTERVAL_MS);
    expect(await rowOf(subscriber)).toMatchObject({ isOnline: true, holder: null });
  });

  it('the heartbeat drops the row of a process silent beyond the threshold', async () => {
    const dead = newId();
    await t.db.insert(apiProcesses).values({ id: dead, heartbeatAt: sql`now() - interval '1 hour'` });
    await waitFor(async () => (await t.db.select().from(apiProcesses).where(eq(apiProcesses.id, dead))).length === 0, {
      description: 'dead heartbeat row removed',
    });
  });
});
