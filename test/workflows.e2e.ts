import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isId } from '#common';
import { startTestApp, type TestApp } from './support/test-app.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

const inApp = (content = 'Hello') => ({ template: { type: 'in_app', content } });
/** "v0,v1,…": a comma-separated filter list of n values. */
const listOf = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`).join(',');
const digest = (metadata: Record<string, unknown>) => ({ template: { type: 'digest' }, metadata });
const delay = (metadata: Record<string, unknown>) => ({ template: { type: 'delay' }, metadata });

describe('workflows: /v1/workflows', () => {
  let t: TestApp;
  let production: { apiKey: string };
  let foreign: { apiKey: string };

  const create = async (body: Record<string, unknown>, key?: string) => {
    const res = await t.api('post', '/v1/workflows', key).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    production = await t.createKeyFor('Production');
    foreign = await t.createForeignKey();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /v1/workflows', () => {
    it('creates a workflow in the spec shape with defaults, step ids, trigger variables and the General group', async () => {
      const res = await t.api('post', '/v1/workflows').send({
        name: 'Welcome Email!',
        steps: [
          {
            name: 'Inbox',
            template: {
              type: 'in_app',
              content: 'Hi {{ subscriber.firstName }}, {{payload.name}} joined',
              cta: { type: 'redirect', data: { url: '/u/{{ payload.user.id }}' } },
            },
          },
          {
            template: {
              type: 'email',
              subject: '{{ payload.subject | upcase }}',
              content: '{% if payload.flag %}yes{% endif %} {{ payload.name }}',
            },
          },
          digest({ type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId' }),
          delay({ type: 'scheduled', delayPath: 'sendAt' }),
        ],
      });
      expect(res.status).toBe(201);
      const body = res.body;
      expect(body).toMatchObject({
        name: 'Welcome Email!',
        description: '',
        active: true,
        draft: false,
        critical: false,
        deleted: false,
        deletedAt: null,
        deletedBy: null,
        tags: [],
        data: null,
        preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
        _environmentId: t.environment.id,
        _organizationId: t.environment.organizationId,
        notificationGroup: { name: 'General', _environmentId: t.environment.id },
      });
      expect(body._notificationGroupId).toBe(body.notificationGroup._id);
      expect(typeof body._creatorId).toBe('string');
      expect(body.triggers).toEqual([
        {
          type: 'event',
          identifier: 'welcome-email',
          variables: [{ name: 'name' }, { name: 'user.id' }, { name: 'subject' }, { name: 'flag' }],
          subscriberVariables: [{ name: 'firstName' }],
        },
      ]);
      expect(body.steps).toHaveLength(4);
      for (const step of body.steps) {
        expect(isId(step._id)).toBe(true);
        expect(step).toMatchObject({ active: true, shouldStopOnFail: false, filters: [] });
      }
      expect(new Set(body.steps.map((step: { _id: string }) => step._id)).size).toBe(4);
      expect(body.steps[0]).toMatchObject({ name: 'Inbox', template: { type: 'in_app' } });
      expect(body.steps[2].metadata).toEqual({ type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId' });
      expect(body.steps[3].metadata).toEqual({ type: 'scheduled', delayPath: 'sendAt' });
    });

    it('takes every optional field and reuses the notification group', async () => {
      const first = await create({ name: 'Group one', steps: [] });
      const body = await create({
        name: 'Full',
        identifier: 'full.workflow_v2',
        description: 'All fields',
        active: false,
        draft: true,
        critical: true,
        preferenceSettings: { email: false },
        tags: ['a', 'b'],
        data: { owner: 'team' },
        notificationGroupId: first._notificationGroupId,
        steps: [
          {
            ...inApp(),
            active: false,
            shouldStopOnFail: true,
            replyCallback: { active: true, url: 'https://example.com/hook' },
          },
          {
            template: { type: 'sms', content: 'x' },
            filters: [
              {
                isNegated: true,
                type: 'GROUP',
                value: 'OR',
                children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'payload' }],
              },
            ],
          },
          digest({
            type: 'backoff',
            amount: 1,
            unit: 'hours',
            backoff: true,
            backoffAmount: 10,
            backoffUnit: 'minutes',
            updateMode: false,
          }),
          digest({
            type: 'timed',
            timed: {
              atTime: '09:30',
              weekDays: ['monday', 'friday'],
              monthDays: ['1', '15'],
              ordinal: 'last',
              ordinalValue: 'weekday',
              monthlyType: 'on',
            },
          }),
          delay({ type: 'regular', amount: 2, unit: 'days' }),
        ],
      });
      expect(body).toMatchObject({
        description: 'All fields',
        active: false,
        draft: true,
        critical: true,
        tags: ['a', 'b'],
        data: { owner: 'team' },
        preferenceSettings: { email: false, sms: true },
        _notificationGroupId: first._notificationGroupId,
        triggers: [{ identifier: 'full.workflow_v2', variables: [] }],
      });
      expect(body.steps[0]).toMatchObject({
        active: false,
        shouldStopOnFail: true,
        replyCallback: { active: true, url: 'https://example.com/hook' },
      });
      expect(body.steps[1].filters[0]).toMatchObject({ isNegated: true, value: 'OR' });
      expect(body.steps[3].metadata.timed).toMatchObject({ atTime: '09:30', ordinal: 'last' });
    });

    it('drops metadata on a channel step', async () => {
      const body = await create({
        name: 'No metadata',
        steps: [{ ...inApp(), metadata: { type: 'regular', amount: 1, unit: 'hours' } }],
      });
      expect(body.steps[0].metadata).toBeUndefined();
    });

    it('409 on a duplicate identifier, given or derived from the name; the same identifier is fine in another environment', async () => {
      await create({ name: 'Order shipped', steps: [inApp()] });
      const derived = await t.api('post', '/v1/workflows').send({ name: 'Order Shipped', steps: [inApp()] });
      expect(derived.status).toBe(409);
      const given = await t
        .api('post', '/v1/workflows')
        .send({ name: 'Other', identifier: 'order-shipped', steps: [inApp()] });
      expect(given.status).toBe(409);
      await create({ name: 'Order shipped', steps: [inApp()] }, production.apiKey);
    });

    it.each([
      ['a missing name', { steps: [] }, 'name'],
      ['steps not an array', { name: 'x', steps: 'email' }, 'steps'],
      ['missing steps', { name: 'x' }, 'steps'],
      [
        'an unknown step type',
        { name: 'x', steps: [inApp(), { template: { type: 'fax' } }] },
        'steps[1].template.type',
      ],
      ['a step without template', { name: 'x', steps: [{ name: 'nothing' }] }, 'steps[0].template'],
      [
        'content neither string nor array',
        { name: 'x', steps: [{ template: { type: 'email', content: 5 } }] },
        'steps[0].template.content',
      ],
      [
        'a digest without metadata',
        { name: 'x', steps: [inApp(), { template: { type: 'digest' } }] },
        'steps[1].metadata',
      ],
      [
        'a bad digest unit',
        { name: 'x', steps: [inApp(), digest({ type: 'regular', amount: 1, unit: 'fortnights' })] },
        'steps[1].metadata.unit',
      ],
      [
        'a digest without amount',
        { name: 'x', steps: [digest({ type: 'regular', unit: 'hours' })] },
        'steps[0].metadata.amount',
      ],
      [
        'a negative amount',
        { name: 'x', steps: [delay({ type: 'regular', amount: -1, unit: 'hours' })] },
        'steps[0].metadata.amount',
      ],
      [
        'a bad backoff unit',
        { name: 'x', steps: [digest({ type: 'backoff', amount: 1, unit: 'hours', backoffUnit: 'ages' })] },
        'steps[0].metadata.backoffUnit',
      ],
      [
        'an unknown digest type',
        { name: 'x', steps: [digest({ type: 'scheduled', delayPath: 'a' })] },
        'steps[0].metadata.type',
      ],
      [
        'a bad timed weekday',
        { name: 'x', steps: [digest({ type: 'timed', timed: { weekDays: ['funday'] } })] },
        'steps[0].metadata.timed.weekDays',
      ],
      [
        'a bad timed ordinal',
        { name: 'x', steps: [digest({ type: 'timed', timed: { ordinal: '7' } })] },
        'steps[0].metadata.timed.ordinal',
      ],
      [
        'a bad timed atTime',
        { name: 'x', steps: [digest({ type: 'timed', timed: { atTime: '25:00' } })] },
        'steps[0].metadata.timed.atTime',
      ],
      [
        'a scheduled delay without delayPath',
        { name: 'x', steps: [delay({ type: 'scheduled' })] },
        'steps[0].metadata.delayPath',
      ],
      ['a timed delay', { name: 'x', steps: [delay({ type: 'timed' })] }, 'steps[0].metadata.type'],
      [
        'metadata not an object',
        { name: 'x', steps: [{ template: { type: 'delay' }, metadata: 'soon' }] },
        'steps[0].metadata',
      ],
      [
        'a bad filter operator',
        {
          name: 'x',
          steps: [
            {
              ...inApp(),
              filters: [{ value: 'AND', children: [{ field: 'a', value: 'b', operator: 'ABOUT', on: 'payload' }] }],
            },
          ],
        },
        'steps[0].filters[0].children[0].operator',
      ],
      [
        'a bad filter source',
        {
          name: 'x',
          steps: [
            {
              ...inApp(),
              filters: [{ value: 'AND', children: [{ field: 'a', value: 'b', operator: 'EQUAL', on: 'actor' }] }],
            },
          ],
        },
        'steps[0].filters[0].children[0].on',
      ],
      [
        'a bad filter type',
        { name: 'x', steps: [{ ...inApp(), filters: [{ type: 'REGEX', value: 'AND', children: [] }] }] },
        'steps[0].filters[0].type',
      ],
      [
        'an ANY_IN list of 1,001 values',
        {
          name: 'x',
          steps: [
            {
              ...inApp(),
              filters: [
                { value: 'AND', children: [{ field: 'arr', value: listOf(1001), operator: 'ANY_IN', on: 'payload' }] },
              ],
            },
          ],
        },
        'steps[0].filters[0].children[0].value',
      ],
      [
        'a NOT_IN JSON array of 14,000 values in the second condition',
        {
          name: 'x',
          steps: [
            {
              ...inApp(),
              filters: [
                {
                  value: 'OR',
                  children: [
                    { field: 'a', value: 'b', operator: 'EQUAL', on: 'payload' },
                    {
                      field: 'a',
                      value: JSON.stringify(Array.from({ length: 14_000 }, (_, i) => i)),
                      operator: 'NOT_IN',
                      on: 'payload',
                    },
                  ],
                },
              ],
            },
          ],
        },
        'steps[0].filters[0].children[1].value',
      ],
      [
        'a non-boolean preference',
        { name: 'x', steps: [], preferenceSettings: { email: 'no' } },
        'preferenceSettings.email',
      ],
      [
        'a digest window of 1e300 days',
        {
          name: 'x',
          steps: [{ template: { type: 'digest' }, metadata: { type: 'regular', amount: 1e300, unit: 'days' } }],
        },
        'steps[0].metadata.amount',
      ],
      [
        'a delay beyond 180 days',
        {
          name: 'x',
          steps: [{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 27, unit: 'weeks' } }],
        },
        'steps[0].metadata.amount',
      ],
      [
        'a timed digest that never fires',
        {
          name: 'x',
          steps: [
            {
              template: { type: 'digest' },
              metadata: {
                type: 'timed',
                unit: 'months',
                timed: { weekDays: ['sunday'], monthlyType: 'on', ordinal: 'last', ordinalValue: 'weekday' },
              },
            },
          ],
        },
        'steps[0].metadata.timed',
      ],
      ['non-string tags', { name: 'x', steps: [], tags: [1] }, 'tags'],
      ['a step that is an array', { name: 'x', steps: [[]] }, 'steps'],
      ['a filter that is an array', { name: 'x', steps: [{ ...inApp(), filters: [[]] }] }, 'steps[0].filters'],
      [
        'a malformed notificationGroupId',
        { name: 'x', steps: [], notificationGroupId: 'general' },
        'notificationGroupId',
      ],
      [
        'an unknown notificationGroupId',
        { name: 'x', steps: [], notificationGroupId: UNKNOWN_ID },
        'notificationGroupId',
      ],
      ['an identifier with spaces', { name: 'x', identifier: 'a b', steps: [] }, 'identifier'],
      ['a name without letters and no identifier', { name: '!!!', steps: [] }, 'identifier'],
    ])('422 on %s', async (_name, body, path) => {
      const res = await t.api('post', '/v1/workflows').send(body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(path);
    });

    it('accepts a filter list of 1,000 values, and a long value under an operator that takes one value', async () => {
      const res = await t.api('post', '/v1/workflows').send({
        name: 'Big lists',
        steps: [
          {
            ...inApp(),
            filters: [
              {
                value: 'AND',
                children: [
                  { field: 'arr', value: listOf(1000), operator: 'ALL_IN', on: 'payload' },
                  { field: 'text', value: listOf(2000), operator: 'LIKE', on: 'payload' },
                ],
              },
            ],
          },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.steps[0].filters[0].children[0].value).toBe(listOf(1000));
    });

    it('401 without a key', async () => {
      expect((await t.http.post('/v1/workflows').send({ name: 'x', steps: [] })).status).toBe(401);
    });
  });

  describe('GET /v1/workflows and /v1/workflows/{id or identifier}', () => {
    it('finds a workflow by internal id, trigger identifier and slug of the name', async () => {
      const created = await create({ name: 'Password Reset', identifier: 'pwd-reset', steps: [inApp()] });
      for (const key of [created._id, 'pwd-reset', 'password-reset']) {
        const res = await t.api('get', `/v1/workflows/${key}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ _id: created._id, notificationGroup: { name: 'General' } });
      }
    });

    it('404 for unknown ids and identifiers and for other environments; 401 without a key', async () => {
      const created = await create({ name: 'Isolated', steps: [] });
      expect((await t.api('get', `/v1/workflows/${UNKNOWN_ID}`)).status).toBe(404);
      expect((await t.api('get', '/v1/workflows/no-such-workflow')).status).toBe(404);
      for (const key of [production.apiKey, foreign.apiKey]) {
        expect((await t.api('get', `/v1/workflows/${created._id}`, key)).status).toBe(404);
        expect((await t.api('get', '/v1/workflows/isolated', key)).status).toBe(404);
      }
      expect((await t.http.get(`/v1/workflows/${created._id}`)).status).toBe(401);
      expect((await t.http.get('/v1/workflows')).status).toBe(401);
    });

    it('lists with page, limit and query; only this environment', async () => {
      const env = await t.createForeignKey();
      for (const name of ['Alpha news', 'Beta news', 'Gamma alert']) await create({ name, steps: [] }, env.apiKey);
      const all = await t.api('get', '/v1/workflows?limit=2', env.apiKey);
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ page: 0, pageSize: 2, hasMore: true, totalCount: 3 });
      expect(all.body.data.map((row: { name: string }) => row.name)).toEqual(['Gamma alert', 'Beta news']);
      const second = await t.api('get', '/v1/workflows?limit=2&page=1', env.apiKey);
      expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
      expect(second.body.data.map((row: { name: string }) => row.name)).toEqual(['Alpha news']);
      const news = await t.api('get', '/v1/workflows?query=NEWS', env.apiKey);
      expect(news.body.data.map((row: { name: string }) => row.name).sort()).toEqual(['Alpha news', 'Beta news']);
      expect((await t.api('get', '/v1/workflows?query=gamma-alert', env.apiKey)).body.totalCount).toBe(1);
      expect((await t.api('get', '/v1/workflows?query=%25', env.apiKey)).body.totalCount).toBe(0);
      expect((await t.api('get', '/v1/workflows', foreign.apiKey)).body.data).toEqual([]);
      expect(all.body.data[0].notificationGroup.name).toBe('General');
    });

    it('422 on bad paging', async () => {
      for (const query of ['limit=0', 'limit=101', 'page=-1', 'limit=abc']) {
        expect((await t.api('get', `/v1/workflows?${query}`)).status).toBe(422);
      }
    });
  });

  describe('PUT /v1/workflows/{id or identifier}', () => {
    it('updates only the given fields; steps replace the list and keep the ids sent back', async () => {
      const created = await create({ name: 'Digest me', steps: [inApp('one'), inApp('two')] });
      const renamed = await t.api('put', `/v1/workflows/${created._id}`).send({ name: 'Digest me later', tags: ['x'] });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        name: 'Digest me later',
        tags: ['x'],
        steps: created.steps,
        triggers: [{ identifier: 'digest-me' }],
      });

      const [first] = created.steps;
      const res = await t.api('put', '/v1/workflows/digest-me').send({
        steps: [
          { ...first, template: { type: 'in_app', content: '{{ payload.count }} new' } },
          digest({ type: 'regular', amount: 1, unit: 'hours' }),
          inApp('after'),
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.steps).toHaveLength(3);
      expect(res.body.steps[0]._id).toBe(first._id);
      expect(res.body.steps[1]._id).not.toBe(created.steps[1]._id);
      expect(res.body.triggers[0].variables).toEqual([{ name: 'count' }]);
      expect((await t.api('get', `/v1/workflows/${created._id}`)).body.steps).toEqual(res.body.steps);
    });

    it('changes the identifier; 409 when it is taken', async () => {
      const a = await create({ name: 'Rename A', steps: [] });
      await create({ name: 'Rename B', steps: [] });
      const res = await t.api('put', `/v1/workflows/${a._id}`).send({ identifier: 'rename-a2' });
      expect(res.body.triggers[0].identifier).toBe('rename-a2');
      expect((await t.api('put', `/v1/workflows/${a._id}`).send({ identifier: 'rename-b' })).status).toBe(409);
    });

    it('422 on bad bodies, 404 for unknown and foreign workflows, 401 without a key', async () => {
      const created = await create({ name: 'Strict update', steps: [inApp()] });
      for (const [body, path] of [
        [{ steps: [inApp(), delay({ type: 'regular', amount: 1, unit: 'eons' })] }, 'steps[1].metadata.unit'],
        [{ active: 'yes' }, 'active'],
        [{ name: '' }, 'name'],
        [{ steps: [{ template: { type: 'telegram' } }] }, 'steps[0].template.type'],
      ] as const) {
        const res = await t.api('put', `/v1/workflows/${created._id}`).send(body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(path);
      }
      expect((await t.api('put', `/v1/workflows/${UNKNOWN_ID}`).send({ name: 'x' })).status).toBe(404);
      expect((await t.api('put', `/v1/workflows/${created._id}`, production.apiKey).send({ name: 'x' })).status).toBe(
        404,
      );
      expect((await t.api('put', `/v1/workflows/${created._id}`, foreign.apiKey).send({ name: 'x' })).status).toBe(404);
      expect((await t.http.put(`/v1/workflows/${created._id}`).send({ name: 'x' })).status).toBe(401);
      expect((await t.api('get', `/v1/workflows/${created._id}`)).body.name).toBe('Strict update');
    });
  });

  describe('PUT /v1/workflows/{id}/status', () => {
    it('deactivates and reactivates', async () => {
      const created = await create({ name: 'Toggle', steps: [] });
      const off = await t.api('put', `/v1/workflows/${created._id}/status`).send({ active: false });
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      const on = await t.api('put', '/v1/workflows/toggle/status').send({ active: true });
      expect(on.body.active).toBe(true);
    });

    it('422 without a boolean active, 404 for unknown and foreign workflows, 401 without a key', async () => {
      const created = await create({ name: 'Toggle strict', steps: [] });
      for (const body of [{}, { active: 'false' }, { active: null }]) {
        const res = await t.api('put', `/v1/workflows/${created._id}/status`).send(body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual(['active']);
      }
      expect((await t.api('put', `/v1/workflows/${UNKNOWN_ID}/status`).send({ active: true })).status).toBe(404);
      expect(
        (await t.api('put', `/v1/workflows/${created._id}/status`, foreign.apiKey).send({ active: false })).status,
      ).toBe(404);
      expect((await t.http.put(`/v1/workflows/${created._id}/status`).send({ active: false })).status).toBe(401);
    });
  });

  describe('DELETE /v1/workflows/{id or identifier}', () => {
    it('soft deletes; the workflow is gone from reads and its identifier is free again', async () => {
      const created = await create({ name: 'Short lived', steps: [] });
      const res = await t.api('delete', '/v1/workflows/short-lived');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ _id: created._id, deleted: true });
      expect(typeof res.body.deletedAt).toBe('string');
      expect((await t.api('get', `/v1/workflows/${created._id}`)).status).toBe(404);
      expect((await t.api('delete', `/v1/workflows/${created._id}`)).status).toBe(404);
      const again = await create({ name: 'Short lived', steps: [] });
      expect(again._id).not.toBe(created._id);
    });

    it('404 for unknown and foreign workflows, 401 without a key', async () => {
      const created = await create({ name: 'Keep me', steps: [] });
      expect((await t.api('delete', `/v1/workflows/${UNKNOWN_ID}`)).status).toBe(404);
      expect((await t.api('delete', `/v1/workflows/${created._id}`, production.apiKey)).status).toBe(404);
      expect((await t.api('delete', `/v1/workflows/${created._id}`, foreign.apiKey)).status).toBe(404);
      expect((await t.http.delete(`/v1/workflows/${created._id}`)).status).toBe(401);
      expect((await t.api('get', `/v1/workflows/${created._id}`)).status).toBe(200);
    });
  });

  describe('POST /v1/workflows: throttle and http_request metadata', () => {
    let workflowCount = 0;

    describe('throttle', () => {
      it.each([
        ['a threshold of 0', { type: 'fixed', amount: 1, unit: 'hours', threshold: 0 }, 'steps[0].metadata.threshold'],
        [
          'a fractional threshold',
          { type: 'fixed', amount: 1, unit: 'hours', threshold: 1.5 },
          'steps[0].metadata.threshold',
        ],
        ['a fixed window without amount', { type: 'fixed', unit: 'hours' }, 'steps[0].metadata.amount'],
        ['a fixed window without unit', { type: 'fixed', amount: 1 }, 'steps[0].metadata.unit'],
        ['a window beyond 180 days', { type: 'fixed', amount: 181, unit: 'days' }, 'steps[0].metadata.amount'],
        ['a dynamic throttle without dynamicKey', { type: 'dynamic' }, 'steps[0].metadata.dynamicKey'],
        ['an unknown type', { type: 'sliding', amount: 1, unit: 'hours' }, 'steps[0].metadata.type'],
        [
          'a non-string throttleKey',
          { type: 'fixed', amount: 1, unit: 'hours', throttleKey: 7 },
          'steps[0].metadata.throttleKey',
        ],
        ['no metadata', undefined, 'steps[0].metadata'],
      ])('422 on %s, and nothing stored', async (_case, metadata, path) => {
        const identifier = `bad-throttle-${++workflowCount}`;
        const res = await t
          .api('post', '/v1/workflows')
          .send({ name: identifier, identifier, steps: [{ template: { type: 'throttle' }, metadata }] });
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(path);
        expect((await t.api('get', `/v1/workflows/${identifier}`)).status).toBe(404);
      });
    });

    describe('http_request', () => {
      it.each([
        ['an unknown method', { url: 'https://example.com', method: 'TRACE' }, 'steps[0].metadata.method'],
        ['a non-http URL', { url: 'ftp://example.com/file' }, 'steps[0].metadata.url'],
        ['a malformed URL', { url: 'https://' }, 'steps[0].metadata.url'],
        ['no URL', { method: 'GET' }, 'steps[0].metadata.url'],
        ['headers that are no list', { url: 'https://example.com', headers: { a: 'b' } }, 'steps[0].metadata.headers'],
        [
          'a header without a value',
          { url: 'https://example.com', headers: [{ key: 'a' }] },
          'steps[0].metadata.headers[0].value',
        ],
        [
          'a header name with a space',
          { url: 'https://example.com', headers: [{ key: 'a b', value: 'c' }] },
          'steps[0].metadata.headers[0].key',
        ],
        ['a string body', { url: 'https://example.com', body: 'x' }, 'steps[0].metadata.body'],
        [
          'a body list of numbers',
          { url: 'https://example.com', body: [{ key: 'a', value: 1 }] },
          'steps[0].metadata.body',
        ],
        [
          'a non-boolean continueOnFailure',
          { url: 'https://example.com', continueOnFailure: 'yes' },
          'steps[0].metadata.continueOnFailure',
        ],
        [
          'a broken template in a header',
          { url: 'https://example.com', headers: [{ key: 'a', value: '{{ x' }] },
          'steps[0].metadata.headers[0].value',
        ],
        ['no metadata', undefined, 'steps[0].metadata'],
      ])('422 on %s, and nothing stored', async (_case, metadata, path) => {
        const identifier = `bad-http-${path.length}-${Math.random().toString(36).slice(2, 8)}`;
        const res = await t
          .api('post', '/v1/workflows')
          .send({ name: identifier, identifier, steps: [{ template: { type: 'http_request' }, metadata }] });
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(path);
        expect((await t.api('get', `/v1/workflows/${identifier}`)).status).toBe(404);
      });
    });
  });

  describe('OpenAPI', () => {
    it('documents the workflow and integration routes with their body and response schemas', async () => {
      const doc = (await t.http.get('/api-docs-json')).body;
      for (const path of [
        '/v1/workflows',
        '/v1/workflows/{workflowId}',
        '/v1/workflows/{workflowId}/status',
        '/v1/integrations',
        '/v1/integrations/active',
        '/v1/integrations/{integrationId}',
        '/v1/integrations/{integrationId}/set-primary',
      ]) {
        expect(doc.paths[path]).toBeDefined();
      }
      expect(doc.paths['/v1/integrations/{integrationId}/set-primary'].post.responses['200']).toBeDefined();
      expect(doc.paths['/v1/workflows'].post.responses['201'].content['application/json'].schema.$ref).toMatch(
        /WorkflowResponseDto$/,
      );
      for (const schema of [
        'CreateWorkflowDto',
        'StepDefinition',
        'StepTemplateDefinition',
        'StepFilterDefinition',
        'DigestRegularMetadata',
        'DigestTimedMetadata',
        'DelayRegularMetadata',
        'DelayScheduledMetadata',
        'ThrottleFixedMetadata',
        'ThrottleDynamicMetadata',
        'HttpRequestMetadata',
        'TimedConfigDefinition',
        'IntegrationResponseDto',
        'CreateIntegrationDto',
        'IntegrationCredentialsDto',
      ]) {
        expect(doc.components.schemas[schema]).toBeDefined();
      }
      // The spec's four digest and delay forms, two throttle forms and the http_request form.
      expect(doc.components.schemas.StepDefinition.properties.metadata.oneOf).toHaveLength(7);
    });
  });
});
