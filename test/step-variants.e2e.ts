import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { workflows } from '#dal';
import { createIntegration } from './support/builders.js';
import { jobsOf, messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startSmtpReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';
import { waitFor } from './support/wait.js';

const condition = (on: string, field: string, value: string) => ({ on, field, operator: 'EQUAL', value });
const when = (...children: Record<string, unknown>[]) => [{ type: 'GROUP', value: 'AND', children }];
const inAppVariant = (name: string, content: string, filters: unknown[], extra: Record<string, unknown> = {}) => ({
  name,
  template: { type: 'in_app', content },
  filters,
  ...extra,
});

describe('step variants', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const createWorkflow = async (body: Record<string, unknown>) => {
    const res = await t.api('post', '/v1/workflows').send(body);
    expect(res.status).toBe(201);
    return res.body as Body;
  };

  it('each subscriber gets the first variant whose filters match, else the step; the details name the variant', async () => {
    const variants = [
      inAppVariant('gold', 'Gold for {{subscriber.firstName}}', when(condition('subscriber', 'data.tier', 'gold'))),
      inAppVariant('french', 'Bonjour {{subscriber.firstName}}', when(condition('subscriber', 'locale', 'fr'))),
      inAppVariant(
        'silver-eu',
        'Silver in {{payload.region}}',
        when(condition('subscriber', 'data.tier', 'silver'), condition('payload', 'region', 'eu')),
      ),
      // Never chosen: a variant without filters, and one turned off.
      inAppVariant('no filters', 'never', []),
      inAppVariant('off', 'never', when(condition('subscriber', 'data.tier', 'bronze')), { active: false }),
    ];
    const workflow = await createWorkflow({
      name: 'Variants',
      steps: [
        { name: 'greeting', template: { type: 'in_app', content: 'Default for {{subscriber.firstName}}' }, variants },
      ],
    });

    const stored = await t.api('get', `/v1/workflows/${workflow._id}`).expect(200);
    const storedVariants = stored.body.steps[0].variants as Body[];
    expect(storedVariants).toHaveLength(5);
    expect(storedVariants[0]).toMatchObject({
      _id: expect.any(String),
      name: 'gold',
      active: true,
      template: { type: 'in_app', content: 'Gold for {{subscriber.firstName}}' },
      filters: [{ isNegated: false, ...when(condition('subscriber', 'data.tier', 'gold'))[0] }],
    });
    expect(storedVariants[4]).toMatchObject({ name: 'off', active: false });
    expect(storedVariants[0].variants).toBeUndefined();
    expect(stored.body.triggers[0].variables).toEqual([{ name: 'region' }]);

    const { transactionId, jobs } = await triggerAndSettle(t, {
      name: workflow.triggers[0].identifier,
      payload: { region: 'eu' },
      to: [
        // Matches the first and the second variant: the first in order wins.
        { subscriberId: 'var-gold', firstName: 'Gail', locale: 'fr', data: { tier: 'gold' } },
        { subscriberId: 'var-french', firstName: 'Fleur', locale: 'fr' },
        { subscriberId: 'var-silver', firstName: 'Sil', data: { tier: 'silver' } },
        { subscriberId: 'var-bronze', firstName: 'Bo', data: { tier: 'bronze' } },
      ],
    });
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed', 'completed', 'completed']);

    const feed = async (subscriberId: string) => {
      const res = await t.api('get', `/v1/subscribers/${subscriberId}/notifications/feed`).expect(200);
      return (res.body.data as Body[]).filter((message) => message.transactionId === transactionId);
    };
    expect((await feed('var-gold')).map((message) => message.content)).toEqual(['Gold for Gail']);
    expect((await feed('var-french')).map((message) => message.content)).toEqual(['Bonjour Fleur']);
    expect((await feed('var-silver')).map((message) => message.content)).toEqual(['Silver in eu']);
    expect((await feed('var-bronze')).map((message) => message.content)).toEqual(['Default for Bo']);
    expect(await messagesOf(t, transactionId)).toHaveLength(4);

    const listed = await t.api('get', `/v1/notifications?transactionId=${transactionId}&limit=10`).expect(200);
    const detailsBySubscriber = new Map(
      (listed.body.data as Body[]).map((item) => [
        item.subscriber.subscriberId as string,
        (item.jobs[0].executionDetails as Body[]).map((detail) => detail.detail as string),
      ]),
    );
    const variantDetail = (index: number, name: string) =>
      `Variant ${index} "${name}" (${storedVariants[index]._id}) selected: its filters matched`;
    expect(detailsBySubscriber.get('var-gold')).toContain(variantDetail(0, 'gold'));
    expect(detailsBySubscriber.get('var-french')).toContain(variantDetail(1, 'french'));
    expect(detailsBySubscriber.get('var-silver')).toContain(variantDetail(2, 'silver-eu'));
    expect(detailsBySubscriber.get('var-bronze')?.some((detail) => detail.startsWith('Variant'))).toBe(false);
  });

  it("a variant's metadata replaces the step's: an urgent delay of 1 s instead of an hour", async () => {
    const urgent = when(condition('payload', 'urgent', 'yes'));
    const workflow = await createWorkflow({
      name: 'Variant delay',
      steps: [
        {
          template: { type: 'delay' },
          metadata: { type: 'regular', amount: 1, unit: 'hours' },
          variants: [
            { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' }, filters: urgent },
          ],
        },
        { template: { type: 'in_app', content: 'after the wait' } },
      ],
    });
    const name = workflow.triggers[0].identifier as string;
    const fast = await triggerAndSettle(t, { name, to: 'var-delay', payload: { urgent: 'yes' } });
    expect(fast.jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
    expect((await messagesOf(t, fast.transactionId)).map((message) => message.content)).toEqual(['after the wait']);

    const res = await t.api('post', '/v1/events/trigger').send({ name, to: 'var-delay', payload: { urgent: 'no' } });
    const slowTransaction = res.body.transactionId as string;
    let slowJobs = await jobsOf(t, slowTransaction);
    await waitFor(async () => (slowJobs = await jobsOf(t, slowTransaction))[0]?.status === 'delayed', {
      description: 'the hour-long delay to start',
    });
    expect(slowJobs[0].runAt!.getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
  });

  it("an email variant's subject and content are what the provider sends", async () => {
    const smtp = await startSmtpReceiver();
    try {
      await createIntegration(t, {
        providerId: 'nodemailer',
        channel: 'email',
        credentials: { host: '127.0.0.1', port: String(smtp.port), secure: false, ignoreTls: true, from: 'a@b.co' },
      });
      const workflow = await createWorkflow({
        name: 'Variant email',
        steps: [
          {
            template: { type: 'email', subject: 'Plain subject', content: '<p>plain body</p>' },
            variants: [
              {
                template: { type: 'email', subject: 'VIP {{subscriber.firstName}}', content: '<p>vip body</p>' },
                filters: when(condition('subscriber', 'data.vip', 'true')),
              },
            ],
          },
        ],
      });
      await triggerAndSettle(t, {
        name: workflow.triggers[0].identifier,
        to: [
          { subscriberId: 'var-mail-vip', email: 'vip@variants.test', firstName: 'Vera', data: { vip: 'true' } },
          { subscriberId: 'var-mail-plain', email: 'plain@variants.test' },
        ],
      });
      await waitFor(() => smtp.mails.length >= 2, { description: 'two mails' });
      const mailTo = (address: string) => smtp.mails.find((mail) => mail.to.includes(address))!.raw;
      expect(mailTo('vip@variants.test')).toContain('Subject: VIP Vera');
      expect(mailTo('vip@variants.test')).toContain('vip body');
      expect(mailTo('plain@variants.test')).toContain('Subject: Plain subject');
      expect(mailTo('plain@variants.test')).toContain('plain body');
    } finally {
      await smtp.close();
    }
  });

  it("the step's own filters still gate it: no variant runs for a step they skip", async () => {
    const workflow = await createWorkflow({
      name: 'Gated variants',
      steps: [
        {
          template: { type: 'in_app', content: 'step' },
          filters: when(condition('payload', 'send', 'yes')),
          variants: [inAppVariant('any', 'variant', when(condition('payload', 'send', 'no')))],
        },
      ],
    });
    const { transactionId, jobs } = await triggerAndSettle(t, {
      name: workflow.triggers[0].identifier,
      payload: { send: 'no' },
      to: 'var-gated',
    });
    expect(jobs.map((job) => job.status)).toEqual(['canceled']);
    expect(await messagesOf(t, transactionId)).toEqual([]);
  });

  it('keeps variant ids sent back on update', async () => {
    const workflow = await createWorkflow({
      name: 'Variant ids',
      steps: [{ template: { type: 'in_app', content: 'a' }, variants: [inAppVariant('v', 'b', [])] }],
    });
    const step = workflow.steps[0] as Body;
    const updated = await t
      .api('put', `/v1/workflows/${workflow._id}`)
      .send({
        steps: [
          {
            _id: step._id,
            template: step.template,
            variants: [{ ...inAppVariant('v', 'c', []), _id: step.variants[0]._id }, inAppVariant('w', 'd', [])],
          },
        ],
      })
      .expect(200);
    const variants = updated.body.steps[0].variants as Body[];
    expect(variants.map((variant) => [variant.name, variant.template.content])).toEqual([
      ['v', 'c'],
      ['w', 'd'],
    ]);
    expect(variants[0]._id).toBe(step.variants[0]._id);
    expect(variants[1]._id).not.toBe(step.variants[0]._id);
  });

  it.each([
    [
      'a variant template that does not parse',
      [inAppVariant('ok', 'fine', []), inAppVariant('broken', 'Hi {{ subscriber.firstName ', [])],
      'steps[0].variants[1].template.content',
    ],
    [
      'a variant content of the wrong type',
      [inAppVariant('bad', 5 as unknown as string, [])],
      'steps[0].variants[0].template.content',
    ],
    [
      'a variant of another type than its step',
      [{ template: { type: 'email', content: 'x', subject: 'y' } }],
      'steps[0].variants[0].template.type',
    ],
    [
      'a variant with variants',
      [{ ...inAppVariant('outer', 'x', []), variants: [inAppVariant('inner', 'y', [])] }],
      'steps[0].variants[0].variants',
    ],
    ['a variant without template', [{ name: 'empty' }], 'steps[0].variants[0].template'],
    [
      'a bad variant filter',
      [
        inAppVariant('f', 'x', [
          { value: 'AND', children: [{ on: 'nowhere', field: 'a', operator: 'EQUAL', value: 'b' }] },
        ]),
      ],
      'steps[0].variants[0].filters[0].children[0].on',
    ],
    ['variants that are not a list', { name: 'x' }, 'steps[0].variants'],
    [
      'more than 20 variants',
      Array.from({ length: 21 }, (_, i) => inAppVariant(`v${i}`, 'x', [])),
      'steps[0].variants',
    ],
  ])('422 on %s, and nothing is stored', async (_name, variants, path) => {
    const name = `Bad variants ${Math.random()}`;
    const res = await t
      .api('post', '/v1/workflows')
      .send({ name, steps: [{ template: { type: 'in_app', content: 'x' }, variants }] });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(path);
    expect(await t.db.select().from(workflows).where(eq(workflows.name, name))).toEqual([]);
  });

  it('422 on a bad variant in an update, and the stored steps stay', async () => {
    const workflow = await createWorkflow({
      name: 'Update variants',
      steps: [{ template: { type: 'in_app', content: 'a' } }],
    });
    const res = await t
      .api('put', `/v1/workflows/${workflow._id}`)
      .send({ steps: [{ template: { type: 'in_app', content: 'b' }, variants: [inAppVariant('v', '{% if %}', [])] }] });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['steps[0].variants[0].template.content']);
    const stored = await t.api('get', `/v1/workflows/${workflow._id}`).expect(200);
    expect(stored.body.steps[0].template.content).toBe('a');
    expect(stored.body.steps[0].variants).toBeUndefined();
  });
});
