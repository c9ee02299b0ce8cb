import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inArray, sql } from 'drizzle-orm';
import { jobs } from '#dal';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf, step } from '../support/engine-fixtures.js';
import { startSmtpReceiver } from '../support/receivers.js';
import type { Body } from '../support/untyped-json.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { createIntegration, listNotifications } from './support/engine-seeds.js';

const delay = (metadata: Record<string, unknown>) => step({ template: { type: 'delay' }, metadata });
const digest = (metadata: Record<string, unknown>) => step({ template: { type: 'digest' }, metadata });
const DIGEST_CONTENT = '{{step.total_count}} new:{% for event in step.events %} {{event.n}}{% endfor %}';
const EMAIL_CONTENT = '<p>{% for event in step.events %}[{{event.order}}]{% endfor %}</p>';

describe('workflow engine: delay and digest steps', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await startEngine();
  });
  afterAll(async () => {
    await e?.close();
  });

  const trigger = async (body: Record<string, unknown>): Promise<string> => {
    const response = await e.trigger(body);
    expect(response.status).toBe('processed');
    return response.transactionId!;
  };
  /** The jobs GET /v1/notifications shows for a transaction's one notification. */
  const listedJobs = async (transactionId: string): Promise<Body[]> => {
    const data = await listNotifications(e, { transactionId });
    expect(data).toHaveLength(1);
    return data[0].jobs as Body[];
  };
  const delayed = { until: (rows: { status: string }[]) => rows[0]?.status === 'delayed' };

  describe('delay', () => {
    it('regular: waits 1 s, then the next step runs', async () => {
      const workflow = await createWorkflow(e, {
        steps: [delay({ type: 'regular', amount: 1, unit: 'seconds' }), inApp('after the delay')],
      });
      const transactionId = await trigger({ name: workflow.identifier, to: 'delay-sub' });
      await e.settled(transactionId, delayed);
      const jobs = await e.settled(transactionId);
      expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
      const [message] = await messagesOf(e, transactionId);
      expect(message.content).toBe('after the delay');
      expect(message.createdAt.getTime() - jobs[0].createdAt.getTime()).toBeGreaterThanOrEqual(950);
      const details = (await detailsOf(e, jobs[0].id)).map((detail) => [detail.status, detail.detail]);
      expect(details[0]).toEqual(['Pending', expect.stringMatching(/^Step delayed until /)]);
      expect(details).toContainEqual(['Success', 'Delay is finished']);
    });

    it('scheduled: waits until the date at payload[delayPath]', async () => {
      const workflow = await createWorkflow(e, {
        steps: [delay({ type: 'scheduled', delayPath: 'sendAt' }), inApp('on time')],
      });
      const sendAt = new Date(Date.now() + 1_500);
      const transactionId = await trigger({
        name: workflow.identifier,
        to: 'delay-sub',
        payload: { sendAt: sendAt.toISOString() },
      });
      const jobs = await e.settled(transactionId);
      expect(jobs[0].runAt?.toISOString()).toBe(sendAt.toISOString());
      expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
      expect((await messagesOf(e, transactionId))[0].createdAt.getTime()).toBeGreaterThanOrEqual(sendAt.getTime());
    });

    it('scheduled: a past or invalid date fails the delay with a clear detail', async () => {
      const workflow = await createWorkflow(e, {
        steps: [delay({ type: 'scheduled', delayPath: 'when.at' }), inApp('x', { active: false })],
      });
      for (const [at, reason] of [
        ['2001-01-01T00:00:00Z', /payload\.when\.at \(2001-01-01T00:00:00Z\) is in the past/],
        ['next tuesday', /payload\.when\.at is not an ISO date/],
        [undefined, /payload\.when\.at is not an ISO date/],
      ] as const) {
        const { jobs } = await e.triggerAndSettle({
          name: workflow.identifier,
          to: 'delay-sub',
          payload: { when: { at } },
        });
        expect(jobs[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(reason) });
        expect(await detailsOf(e, jobs[0].id)).toContainEqual(
          expect.objectContaining({ status: 'Failed', source: 'Payload', detail: expect.stringMatching(reason) }),
        );
      }
    });
  });

  describe('digest', () => {
    it('regular: 3 events in the window become ONE in_app message with step.total_count 3 and step.events', async () => {
      const workflow = await createWorkflow(e, {
        steps: [digest({ type: 'regular', amount: 2, unit: 'seconds' }), inApp(DIGEST_CONTENT)],
      });
      const transactionIds: string[] = [];
      for (const n of [1, 2, 3])
        transactionIds.push(await trigger({ name: workflow.identifier, to: 'digest-sub', payload: { n } }));
      const all = await e.settledAll(transactionIds);
      const statuses = all.map((jobs) => jobs.map((job) => job.status).join(','));
      expect(statuses.sort()).toEqual(['completed,completed', 'merged,merged', 'merged,merged']);
      const messages = (await Promise.all(transactionIds.map((txn) => messagesOf(e, txn)))).flat();
      expect(messages).toHaveLength(1);
      expect(messages[0].content).toMatch(/^3 new: \d \d \d$/);
      expect(String(messages[0].content).split(' ').slice(2).sort()).toEqual(['1', '2', '3']);
      const master = all.find((jobs) => jobs[0].status === 'completed')![0];
      // The feed derives the events as the steps after the digest saw them: the master's first, then the merged ones.
      const [listedMaster] = await listedJobs(master.transactionId);
      expect(listedMaster.digest).toMatchObject({ type: 'regular', amount: 2, unit: 'seconds' });
      const rendered = String(messages[0].content).split(' ').slice(2);
      expect(listedMaster.digest.events).toEqual(rendered.map((n) => ({ n: Number(n) })));
      const merged = all.find((jobs) => jobs[0].status === 'merged')![0];
      expect((await listedJobs(merged.transactionId))[0].digest).not.toHaveProperty('events');
      expect((await detailsOf(e, merged.id))[0].detail).toBe(`Digest was merged with other digest (job ${master.id})`);
      expect((await detailsOf(e, master.id)).map((detail) => detail.detail)).toContain(
        'Digest triggered events: 3 events',
      );
    });

    it('keeps no copy of the digested payloads in its jobs; the email after it still renders step.events, and the feed shows them', async () => {
      const smtp = await startSmtpReceiver();
      try {
        await createIntegration(e, {
          providerId: 'nodemailer',
          channel: 'email',
          credentials: { host: '127.0.0.1', port: String(smtp.port), secure: false, ignoreTls: true, from: 'a@b.co' },
        });
        const workflow = await createWorkflow(e, {
          steps: [
            digest({ type: 'regular', amount: 2, unit: 'seconds' }),
            step({ template: { type: 'email', subject: '{{step.total_count}} orders', content: EMAIL_CONTENT } }),
          ],
        });
        const to = ['a', 'b', 'c'].map((name) => ({
          subscriberId: `digest-copy-${name}`,
          email: `${name}@example.com`,
        }));
        // Random base64 does not compress: a copy of it in a job row would count at full size.
        const payloads = [1, 2, 3].map((n) => ({ order: `o-${n}`, blob: randomBytes(60 * 1024).toString('base64') }));
        const transactionIds: string[] = [];
        for (const payload of payloads) transactionIds.push(await trigger({ name: workflow.identifier, to, payload }));
        await e.settledAll(transactionIds);

        const rows = await e.db
          .select({ digest: jobs.digest, bytes: sql<number>`pg_column_size(jobs.*)` })
          .from(jobs)
          .where(inArray(jobs.transactionId, transactionIds));
        expect(rows).toHaveLength(18);
        for (const row of rows) expect(row.digest ?? {}).not.toHaveProperty('events');
        // Each subscriber's master job held the 3 payloads: 9 copies of one, for 3 subscribers.
        const jobBytes = rows.reduce((sum, row) => sum + Number(row.bytes), 0);
        expect(jobBytes).toBeLessThan(Buffer.byteLength(JSON.stringify(payloads[0])));

        const ordersByEmail = new Map(
          smtp.mails.map((mail) => {
            expect(mail.raw).toContain('Subject: 3 orders');
            const [, html] = mail.raw.split('Content-Type: text/html');
            return [mail.to[0], html.match(/\[o-\d\]/g)!.map((order) => order.slice(1, -1))];
          }),
        );
        expect([...ordersByEmail.keys()].sort()).toEqual(to.map((subscriber) => subscriber.email));
        const items = (
          await Promise.all(transactionIds.map((transactionId) => listNotifications(e, { transactionId })))
        ).flat();
        const masters = items.filter((item) => item.jobs[0].status === 'completed');
        expect(masters.map((item) => item.subscriber.email).sort()).toEqual(to.map((subscriber) => subscriber.email));
        for (const item of masters) {
          const orders = ordersByEmail.get(item.subscriber.email)!;
          expect([...orders].sort()).toEqual(['o-1', 'o-2', 'o-3']);
          expect(item.jobs[0].digest.events).toEqual(orders.map((order) => payloads.find((p) => p.order === order)));
        }
        const merged = items.filter((item) => item.jobs[0].status === 'merged');
        expect(merged).toHaveLength(6);
        for (const item of merged) expect(item.jobs[0].digest).not.toHaveProperty('events');
      } finally {
        await smtp.close();
      }
    });

    it('digestKey: events with different values are digested apart', async () => {
      const workflow = await createWorkflow(e, {
        steps: [digest({ type: 'regular', amount: 1, unit: 'seconds', digestKey: 'post.id' }), inApp(DIGEST_CONTENT)],
      });
      const transactionIds: string[] = [];
      for (const [n, post] of [
        [1, 'a'],
        [2, 'b'],
        [3, 'a'],
      ] as const) {
        transactionIds.push(
          await trigger({ name: workflow.identifier, to: 'digest-key-sub', payload: { n, post: { id: post } } }),
        );
      }
      await e.settledAll(transactionIds);
      const contents = (await Promise.all(transactionIds.map((txn) => messagesOf(e, txn))))
        .flat()
        .map((message) => String(message.content));
      expect(contents.map((content) => content.split(':')[0]).sort()).toEqual(['1 new', '2 new']);
    });

    it('backoff: the first event is sent at once, the next ones in the backoff window are digested', async () => {
      const workflow = await createWorkflow(e, {
        steps: [
          digest({
            type: 'backoff',
            amount: 2,
            unit: 'seconds',
            backoff: true,
            backoffAmount: 10,
            backoffUnit: 'seconds',
          }),
          inApp(DIGEST_CONTENT),
        ],
      });
      const first = await e.triggerAndSettle({ name: workflow.identifier, to: 'backoff-sub', payload: { n: 1 } });
      expect(first.jobs.map((job) => job.status)).toEqual(['skipped', 'completed']);
      expect((await detailsOf(e, first.jobs[0].id))[0].detail).toMatch(/first backoff event/);
      expect((await messagesOf(e, first.transactionId))[0].content).toBe('1 new: 1');
      expect((await listedJobs(first.transactionId))[0].digest.events).toEqual([{ n: 1 }]);

      const later = [await trigger({ name: workflow.identifier, to: 'backoff-sub', payload: { n: 2 } })];
      later.push(await trigger({ name: workflow.identifier, to: 'backoff-sub', payload: { n: 3 } }));
      await e.settledAll(later);
      const messages = (await Promise.all(later.map((txn) => messagesOf(e, txn)))).flat();
      expect(messages).toHaveLength(1);
      expect(messages[0].content).toMatch(/^2 new: (2 3|3 2)$/);
    });

    it('timed with a seconds unit: the window closes after amount × unit', async () => {
      const workflow = await createWorkflow(e, {
        steps: [digest({ type: 'timed', amount: 1, unit: 'seconds' }), inApp(DIGEST_CONTENT)],
      });
      const transactionIds = [await trigger({ name: workflow.identifier, to: 'timed-sub', payload: { n: 1 } })];
      transactionIds.push(await trigger({ name: workflow.identifier, to: 'timed-sub', payload: { n: 2 } }));
      await e.settledAll(transactionIds);
      const messages = (await Promise.all(transactionIds.map((txn) => messagesOf(e, txn)))).flat();
      expect(messages.map((message) => String(message.content).split(':')[0])).toEqual(['2 new']);
    });

    it('timed on a calendar day: waits until atTime in the subscriber timezone', async () => {
      const workflow = await createWorkflow(e, {
        steps: [
          digest({ type: 'timed', unit: 'weeks', amount: 1, timed: { atTime: '09:00', weekDays: ['monday'] } }),
          inApp(DIGEST_CONTENT),
        ],
      });
      e.clock.set(new Date('2030-01-06T12:00:00Z')); // a Sunday
      try {
        const transactionId = await trigger({
          name: workflow.identifier,
          to: { subscriberId: 'timed-tz-sub', timezone: 'Europe/Paris' },
        });
        await e.settled(transactionId, delayed);
        expect((await jobsOf(e, transactionId))[0].runAt?.toISOString()).toBe('2030-01-07T08:00:00.000Z');
        expect(await e.cancel(transactionId)).toBe(true);
      } finally {
        e.clock.reset();
      }
    });
  });
});
