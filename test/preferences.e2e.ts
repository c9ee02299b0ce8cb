import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '#common';
import { WorkflowRepository, type StoredStep, type WorkflowRow } from '#dal';
import { SubscriberPreferenceService, slugify } from '#application';
import { createSubscriber } from './support/builders.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';

const ALL_ON = { in_app: true, email: true, sms: true, chat: true, push: true };
const weekdays = {
  isEnabled: true,
  weeklySchedule: {
    monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
    tuesday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '2:00 am' }] },
    saturday: { isEnabled: false },
    sunday: { isEnabled: true },
  },
};

describe('subscriber preferences (GET and PATCH /v2/subscribers/{subscriberId}/preferences)', () => {
  let t: TestApp;
  let counter = 0;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const step = (type: string, active = true): StoredStep => ({
    _id: newId(),
    active,
    shouldStopOnFail: false,
    template: { type },
    filters: [],
  });

  /** Workflows are written through the repository so these tests only depend on the preferences module. */
  async function createWorkflow(
    fields: Partial<WorkflowRow> & { steps: StoredStep[] },
    environment = t.environment,
  ): Promise<WorkflowRow> {
    const repository = t.app.get(WorkflowRepository);
    const scope = { environmentId: environment.id, organizationId: environment.organizationId };
    const group = await repository.findOrCreateGroup(scope, 'General');
    counter += 1;
    const row = await repository.create(scope, {
      identifier: `wf-${counter}-${newId().slice(-6)}`,
      name: `Preference Workflow ${counter} ${newId().slice(-6)}`,
      notificationGroupId: group.id,
      active: true,
      critical: false,
      preferenceSettings: {},
      ...fields,
    });
    return row!;
  }

  const get = (subscriberId: string, query = '', key?: string) =>
    t.api('get', `/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences${query}`, key);
  const patch = (subscriberId: string, body: Body, key?: string) =>
    t.api('patch', `/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences`, key).send(body);
  const entryOf = (body: Body, workflow: WorkflowRow) =>
    body.workflows.find((entry: Body) => entry.workflow.identifier === workflow.identifier);

  /** A fresh environment per scenario keeps the workflow lists of the tests apart. */
  async function isolated(): Promise<{ key: string; environment: TestApp['environment'] }> {
    const foreign = await t.createForeignKey();
    return { key: foreign.apiKey, environment: foreign.environment };
  }

  describe('GET', () => {
    it('404 for an unknown subscriber', async () => {
      const res = await get('nobody-here');
      expect(res.status).toBe(404);
      expect(res.body.message).toContain('nobody-here');
    });

    it('404 for a subscriber of another environment', async () => {
      const subscriber = await createSubscriber(t);
      const other = await isolated();
      expect((await get(subscriber.subscriberId as string, '', other.key)).status).toBe(404);
      expect((await get(subscriber.subscriberId as string)).status).toBe(200);
    });

    it('answers the global entry with all five channels on and no schedule by default', async () => {
      const { key } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const res = await get(subscriber.subscriberId as string, '', key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ global: { enabled: true, channels: ALL_ON }, workflows: [] });
    });

    it('lists active workflows only, each with the channels of its active steps and the workflow info', async () => {
      const { key, environment } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const full = await createWorkflow(
        {
          name: 'Order Shipped!',
          steps: [
            step('in_app'),
            step('digest'),
            step('email'),
            step('sms', false),
            step('delay'),
            step('email'),
            step('push'),
          ],
        },
        environment,
      );
      await createWorkflow({ active: false, steps: [step('email')] }, environment);
      const deleted = await createWorkflow({ steps: [step('email')] }, environment);
      await t.app.get(WorkflowRepository).softDelete(environment.id, deleted.id, 'test', new Date());
      const noChannels = await createWorkflow({ steps: [step('delay')] }, environment);

      const res = await get(subscriber.subscriberId as string, '', key);
      expect(res.status).toBe(200);
      expect(res.body.workflows.map((entry: Body) => entry.workflow.identifier).sort()).toEqual(
        [full.identifier, noChannels.identifier].sort(),
      );
      expect(entryOf(res.body, full)).toEqual({
        enabled: true,
        channels: { in_app: true, email: true, push: true },
        overrides: [
          { channel: 'in_app', source: 'template' },
          { channel: 'email', source: 'template' },
          { channel: 'push', source: 'template' },
        ],
        workflow: {
          slug: 'order-shipped',
          identifier: full.identifier,
          name: 'Order Shipped!',
          updatedAt: full.updatedAt.toISOString(),
        },
      });
      expect(entryOf(res.body, noChannels)).toMatchObject({ channels: {}, overrides: [] });
    });

    it('filters by criticality: nonCritical by default, critical, all; another value is a 422', async () => {
      const { key, environment } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const normal = await createWorkflow({ steps: [step('email')] }, environment);
      const critical = await createWorkflow({ critical: true, steps: [step('sms')] }, environment);
      const ids = async (query: string) => {
        const res = await get(subscriber.subscriberId as string, query, key);
        expect(res.status).toBe(200);
        return res.body.workflows.map((entry: Body) => entry.workflow.identifier).sort();
      };
      expect(await ids('')).toEqual([normal.identifier]);
      expect(await ids('?criticality=nonCritical')).toEqual([normal.identifier]);
      expect(await ids('?criticality=critical')).toEqual([critical.identifier]);
      expect(await ids('?criticality=all')).toEqual([normal.identifier, critical.identifier].sort());
      for (const bad of ['?criticality=urgent', '?criticality=', '?criticality=CRITICAL']) {
        const res = await get(subscriber.subscriberId as string, bad, key);
        expect(res.status).toBe(422);
        expect(res.body.errors).toHaveProperty('criticality');
      }
    });

    it('resolves every channel by layer (workflow default → subscriber global → per-workflow) with the deciding source', async () => {
      const { key, environment } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const id = subscriber.subscriberId as string;
      const workflow = await createWorkflow(
        {
          preferenceSettings: { email: false, sms: false, chat: true },
          steps: [step('in_app'), step('email'), step('sms'), step('chat'), step('push')],
        },
        environment,
      );
      const critical = await createWorkflow(
        { critical: true, preferenceSettings: { push: false }, steps: [step('email'), step('push')] },
        environment,
      );

      const initial = entryOf((await get(id, '', key)).body, workflow);
      expect(initial.channels).toEqual({ in_app: true, email: false, sms: false, chat: true, push: true });
      expect(initial.overrides.every((override: Body) => override.source === 'template')).toBe(true);

      expect((await patch(id, { channels: { sms: true, push: false, chat: false } }, key)).status).toBe(200);
      expect(
        (await patch(id, { workflowId: workflow.identifier, channels: { chat: true, in_app: false } }, key)).status,
      ).toBe(200);

      const res = await get(id, '?criticality=all', key);
      expect(res.status).toBe(200);
      expect(entryOf(res.body, workflow)).toMatchObject({
        channels: { in_app: false, email: false, sms: true, chat: true, push: false },
        overrides: [
          { channel: 'in_app', source: 'subscriber' },
          { channel: 'email', source: 'template' },
          { channel: 'sms', source: 'subscriber' },
          { channel: 'chat', source: 'subscriber' },
          { channel: 'push', source: 'subscriber' },
        ],
      });
      // A critical workflow ignores the subscriber layers: its own defaults stand.
      expect(entryOf(res.body, critical)).toMatchObject({
        channels: { email: true, push: false },
        overrides: [
          { channel: 'email', source: 'template' },
          { channel: 'push', source: 'template' },
        ],
      });
      expect(res.body.global.channels).toEqual({ in_app: true, email: true, sms: true, chat: false, push: false });
    });
  });

  describe('PATCH', () => {
    it('updates the global channels, merging with earlier changes, and answers the nonCritical shape', async () => {
      const { key, environment } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const id = subscriber.subscriberId as string;
      const workflow = await createWorkflow({ steps: [step('email'), step('sms')] }, environment);
      await createWorkflow({ critical: true, steps: [step('email')] }, environment);

      const first = await patch(id, { channels: { email: false } }, key);
      expect(first.status).toBe(200);
      expect(first.body.global).toEqual({ enabled: true, channels: { ...ALL_ON, email: false } });
      expect(first.body.workflows).toHaveLength(1);
      expect(entryOf(first.body, workflow)).toMatchObject({
        channels: { email: false, sms: true },
        overrides: [
          { channel: 'email', source: 'subscriber' },
          { channel: 'sms', source: 'template' },
        ],
      });

      const second = await patch(id, { channels: { sms: false } }, key);
      expect(second.body.global.channels).toEqual({ ...ALL_ON, email: false, sms: false });
      expect((await get(id, '', key)).body).toEqual(second.body);
    });

    it('merges concurrent changes of different channels without losing any', async () => {
      const subscriber = await createSubscriber(t);
      const id = subscriber.subscriberId as string;
      const results = await Promise.all(
        Object.keys(ALL_ON).map((channel) => patch(id, { channels: { [channel]: false } })),
      );
      expect(results.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await get(id)).body.global.channels).toEqual({
        in_app: false,
        email: false,
        sms: false,
        chat: false,
        push: false,
      });
    });

    it('updates one workflow given by internal id, trigger identifier or slug, leaving the others alone', async () => {
      const { key, environment } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const id = subscriber.subscriberId as string;
      const byId = await createWorkflow({ steps: [step('email')] }, environment);
      const byIdentifier = await createWorkflow({ steps: [step('sms')] }, environment);
      const bySlug = await createWorkflow({ name: 'Weekly Digest Mail', steps: [step('push')] }, environment);
      const untouched = await createWorkflow({ steps: [step('email'), step('sms'), step('push')] }, environment);

      for (const [workflowId, channels] of [
        [byId.id, { email: false }],
        [byIdentifier.identifier, { sms: false }],
        [slugify(bySlug.name), { push: false }],
      ] as const) {
        const res = await patch(id, { workflowId, channels }, key);
        expect(res.status).toBe(200);
      }
      const body = (await get(id, '', key)).body;
      expect(slugify(bySlug.name)).toBe('weekly-digest-mail');
      expect(entryOf(body, byId)).toMatchObject({
        channels: { email: false },
        overrides: [{ channel: 'email', source: 'subscriber' }],
      });
      expect(entryOf(body, byIdentifier)).toMatchObject({
        channels: { sms: false },
        overrides: [{ channel: 'sms', source: 'subscriber' }],
      });
      expect(entryOf(body, bySlug)).toMatchObject({
        channels: { push: false },
        overrides: [{ channel: 'push', source: 'subscriber' }],
      });
      expect(entryOf(body, untouched)).toMatchObject({ channels: { email: true, sms: true, push: true } });
      expect(body.global.channels).toEqual(ALL_ON);
    });

    it('404 for an unknown workflow, whatever form its key takes', async () => {
      const subscriber = await createSubscriber(t);
      for (const workflowId of ['no-such-workflow', newId(), 'not-a-uuid-0000-0000']) {
        const res = await patch(subscriber.subscriberId as string, { workflowId, channels: { email: false } });
        expect(res.status).toBe(404);
      }
    });

    it('404 for a workflow of another environment', async () => {
      const subscriber = await createSubscriber(t);
      const other = await isolated();
      const foreign = await createWorkflow({ steps: [step('email')] }, other.environment);
      expect(
        (await patch(subscriber.subscriberId as string, { workflowId: foreign.id, channels: { email: false } })).status,
      ).toBe(404);
    });

    it('400 for a critical workflow, and nothing is stored', async () => {
      const subscriber = await createSubscriber(t);
      const critical = await createWorkflow({ critical: true, steps: [step('email')] });
      const res = await patch(subscriber.subscriberId as string, {
        workflowId: critical.identifier,
        channels: { email: false },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Critical workflow');
      const after = await get(subscriber.subscriberId as string, '?criticality=critical');
      expect(entryOf(after.body, critical).channels).toEqual({ email: true });
    });

    it('404 for an unknown subscriber', async () => {
      expect((await patch('ghost-subscriber', { channels: { email: false } })).status).toBe(404);
    });

    it('a global change keeps the per-workflow choices, which keep winning', async () => {
      const { key, environment } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const id = subscriber.subscriberId as string;
      const chosen = await createWorkflow({ steps: [step('email'), step('in_app')] }, environment);
      const other = await createWorkflow({ steps: [step('email')] }, environment);

      await patch(id, { workflowId: chosen.id, channels: { email: true, in_app: false } }, key);
      const res = await patch(id, { channels: { email: false, in_app: true } }, key);
      expect(res.status).toBe(200);
      expect(entryOf(res.body, chosen)).toMatchObject({ channels: { email: true, in_app: false } });
      expect(entryOf(res.body, other)).toMatchObject({
        channels: { email: false },
        overrides: [{ channel: 'email', source: 'subscriber' }],
      });
    });

    it('rejects non-boolean channel values and a non-object channels with 422; unknown channel keys are ignored', async () => {
      const subscriber = await createSubscriber(t);
      const id = subscriber.subscriberId as string;
      const bad = await patch(id, { channels: { email: 'no' } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toHaveProperty(['channels.email']);
      expect((await patch(id, { channels: 'all' })).status).toBe(422);
      expect((await patch(id, { workflowId: 42 })).status).toBe(422);
      const ignored = await patch(id, { channels: { fax: false } });
      expect(ignored.status).toBe(200);
      expect(ignored.body.global.channels).toEqual(ALL_ON);
    });

    describe('schedule', () => {
      it('is saved on the global preference, returned by GET, replaced by the next one and removed by null', async () => {
        const subscriber = await createSubscriber(t);
        const id = subscriber.subscriberId as string;
        const saved = await patch(id, { schedule: weekdays });
        expect(saved.status).toBe(200);
        expect(saved.body.global.schedule).toEqual(weekdays);
        expect((await get(id)).body.global.schedule).toEqual(weekdays);

        // A channel-only change keeps the schedule.
        expect((await patch(id, { channels: { sms: false } })).body.global.schedule).toEqual(weekdays);

        const replacement = { isEnabled: false };
        expect((await patch(id, { schedule: replacement })).body.global.schedule).toEqual(replacement);

        const removed = await patch(id, { schedule: null });
        expect(removed.status).toBe(200);
        expect(removed.body.global).not.toHaveProperty('schedule');
        expect(removed.body.global.channels.sms).toBe(false);
      });

      it('stores only the spec fields of a schedule', async () => {
        const subscriber = await createSubscriber(t);
        const res = await patch(subscriber.subscriberId as string, {
          schedule: {
            isEnabled: true,
            extra: 1,
            weeklySchedule: {
              friday: { isEnabled: true, note: 'x', hours: [{ start: '8:00 AM', end: '9:00 AM', tz: 'x' }] },
            },
          },
        });
        expect(res.status).toBe(200);
        expect(res.body.global.schedule).toEqual({
          isEnabled: true,
          weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '8:00 AM', end: '9:00 AM' }] } },
        });
      });

      it('is ignored when a workflowId is given', async () => {
        const subscriber = await createSubscriber(t);
        const workflow = await createWorkflow({ steps: [step('email')] });
        const res = await patch(subscriber.subscriberId as string, {
          workflowId: workflow.id,
          channels: { email: false },
          schedule: weekdays,
        });
        expect(res.status).toBe(200);
        expect(res.body.global).not.toHaveProperty('schedule');
      });

      it.each([
        [
          'a bad time format',
          {
            isEnabled: true,
            weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '17:00', end: '06:00 PM' }] } },
          },
          'schedule.weeklySchedule.monday.hours[0].start',
        ],
        [
          'an hour out of range',
          {
            isEnabled: true,
            weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '9:00 AM', end: '13:00 PM' }] } },
          },
          'schedule.weeklySchedule.monday.hours[0].end',
        ],
        [
          'an unknown day',
          { isEnabled: true, weeklySchedule: { funday: { isEnabled: true } } },
          'schedule.weeklySchedule.funday',
        ],
        ['a missing isEnabled', { weeklySchedule: { monday: { isEnabled: true } } }, 'schedule.isEnabled'],
        ['a non-boolean isEnabled', { isEnabled: 'true' }, 'schedule.isEnabled'],
        [
          'a day without isEnabled',
          { isEnabled: true, weeklySchedule: { monday: { hours: [] } } },
          'schedule.weeklySchedule.monday.isEnabled',
        ],
        [
          'hours that are not a list',
          { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: '9-5' } } },
          'schedule.weeklySchedule.monday.hours',
        ],
        ['an enabled schedule without days', { isEnabled: true, weeklySchedule: {} }, 'schedule.weeklySchedule'],
        ['a schedule that is not an object', 'always', 'schedule'],
      ])('422 for %s', async (_label, schedule, path) => {
        const subscriber = await createSubscriber(t);
        const res = await patch(subscriber.subscriberId as string, { schedule });
        expect(res.status).toBe(422);
        expect(res.body.errors).toHaveProperty([path]);
        expect(res.body.errors[path].messages.length).toBeGreaterThan(0);
        expect((await get(subscriber.subscriberId as string)).body.global).not.toHaveProperty('schedule');
      });
    });
  });

  describe('with workflows created through POST /v1/workflows', () => {
    it('reads the stored defaults and steps, and PATCH finds the workflow by its slug', async () => {
      const { key } = await isolated();
      const subscriber = await createSubscriber(t, {}, key);
      const id = subscriber.subscriberId as string;
      const created = await t.api('post', '/v1/workflows', key).send({
        name: 'Invoice Ready',
        identifier: 'invoice-ready-v2',
        preferenceSettings: { sms: false },
        steps: [
          { template: { type: 'in_app', content: 'Invoice {{payload.number}}' } },
          { template: { type: 'sms', content: 'Invoice ready' } },
          { active: false, template: { type: 'email', subject: 'Invoice', content: 'Ready' } },
        ],
      });
      expect(created.status).toBe(201);
      const before = await get(id, '', key);
      expect(before.body.workflows).toEqual([
        {
          enabled: true,
          channels: { in_app: true, sms: false },
          overrides: [
            { channel: 'in_app', source: 'template' },
            { channel: 'sms', source: 'template' },
          ],
          workflow: {
            slug: 'invoice-ready',
            identifier: 'invoice-ready-v2',
            name: 'Invoice Ready',
            updatedAt: created.body.updatedAt ?? expect.any(String),
          },
        },
      ]);
      const res = await patch(id, { workflowId: 'invoice-ready', channels: { sms: true } }, key);
      expect(res.status).toBe(200);
      expect(res.body.workflows[0]).toMatchObject({
        channels: { in_app: true, sms: true },
        overrides: [{ source: 'template' }, { source: 'subscriber' }],
      });
    });
  });

  it('documents both operations in the OpenAPI document', async () => {
    const res = await t.http.get('/api-docs-json');
    const path = res.body.paths['/v2/subscribers/{subscriberId}/preferences'];
    expect(Object.keys(path).sort()).toEqual(['get', 'patch']);
    expect(path.get.responses['200'].content['application/json'].schema.$ref).toContain('PreferencesResponseDto');
    expect(path.get.parameters.map((parameter: Body) => parameter.name).sort()).toEqual([
      'criticality',
      'subscriberId',
    ]);
    expect(res.body.components.schemas.ScheduleDto.properties).toHaveProperty('weeklySchedule');
  });

  describe('send time (SubscriberPreferenceService)', () => {
    it('gives the engine the same answer as the API, critical workflows always on, in one query for many', async () => {
      const service = t.app.get(SubscriberPreferenceService);
      const off = await createSubscriber(t);
      const on = await createSubscriber(t);
      const workflow = await createWorkflow({ steps: [step('email'), step('sms')] });
      const critical = await createWorkflow({ critical: true, steps: [step('email')] });
      await patch(off.subscriberId as string, { channels: { email: false, sms: false }, schedule: weekdays });
      await patch(off.subscriberId as string, { workflowId: workflow.id, channels: { sms: true } });
      const env = t.environment.id;

      const enabled = async (sent: WorkflowRow, channel: 'email' | 'sms') =>
        Object.fromEntries(
          await service.isChannelEnabledForMany(env, [off._id as string, on._id as string], sent, channel),
        );
      expect(await enabled(workflow, 'email')).toEqual({ [off._id as string]: false, [on._id as string]: true });
      expect(await enabled(workflow, 'sms')).toEqual({ [off._id as string]: true, [on._id as string]: true });
      expect(await enabled(critical, 'email')).toEqual({ [off._id as string]: true, [on._id as string]: true });

      expect(await service.getSchedule(env, off._id as string)).toEqual(weekdays);
      expect(await service.getSchedule(env, on._id as string)).toBeNull();
    });
  });
});
