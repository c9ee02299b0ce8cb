import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Text of files a template might try to read: none of it may come out of any message or detail. */
const FILE_TEXT = [
  readFileSync('package.json', 'utf8').slice(0, 40),
  readFileSync('README.md', 'utf8').slice(0, 40),
  readFileSync('tsconfig.json', 'utf8').slice(0, 40),
];

const FILE_PROBES: [string, string][] = [
  ['render of a relative file', `{% render 'package.json' %}`],
  ['render of the embedded key', `{% render ".data/encryption.key" %}`],
  ['render of an absolute path', `{% render '/etc/passwd' %}`],
  ['include with ../', `{% include '../main/README.md' %}`],
  ['include of a file', `{% include 'tsconfig.json' %}`],
  ['layout of a file', `{% layout 'README.md' %}body`],
  ['render inside a liquid tag', `{% liquid\nrender 'package.json'\n%}`],
];

const HOSTILE_RENDERS: [string, string, RegExp][] = [
  ['a huge loop', '{% for i in (1..100000000) %}x{% endfor %}', /memory limit/],
  [
    'nested loops',
    '{% for i in (1..5000) %}{% for j in (1..5000) %}{% for k in (1..5000) %}x{% endfor %}{% endfor %}{% endfor %}',
    /render time limit|memory limit/,
  ],
  [
    'a huge string filter chain',
    `{{ "x"${' | append: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"'.repeat(1500)} }}`,
    /render time limit|memory limit/,
  ],
  [
    'a string doubled again and again',
    '{% assign s = "xx" %}{% for i in (1..60) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
    /memory limit/,
  ],
  [
    'a loop printing the payload',
    '{% for i in (1..1000000) %}{{ payload.big }}{% endfor %}',
    /memory limit|render time limit/,
  ],
];

describe('template security', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const workflowCount = async () =>
    (await t.api('get', '/v1/workflows?limit=100').expect(200)).body.totalCount as number;

  describe('refused when saved', () => {
    it.each([
      ...FILE_PROBES,
      ['a syntax error', '{% if %}x'],
      ['an unclosed tag', '{% for x in payload.items %}x'],
      ['an unknown filter', '{{ payload.x | shell }}'],
      ['blocks nested 1,000 deep', `${'{% if true %}'.repeat(1_000)}x${'{% endif %}'.repeat(1_000)}`],
      ['lookups nested 5,000 deep', `{{ payload${'[payload'.repeat(5_000)}${']'.repeat(5_000)} }}`],
    ])('422 naming the field on %s, nothing stored', async (_name, content) => {
      const before = await workflowCount();
      const res = await t.api('post', '/v1/workflows').send({
        name: `bad ${_name}`,
        steps: [
          { template: { type: 'in_app', content: 'fine {{ payload.x }}' } },
          { template: { type: 'email', subject: 'Hi', content } },
        ],
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['steps[1].template.content']);
      expect(res.body.message).toMatch(/^steps\[1\]\.template\.content: /);
      for (const text of FILE_TEXT) expect(JSON.stringify(res.body)).not.toContain(text);
      expect(await workflowCount()).toBe(before);
    });

    it('an update with a broken template is refused and the stored steps stay', async () => {
      const created = await t.api('post', '/v1/workflows').send({
        name: 'Kept template',
        steps: [{ template: { type: 'in_app', content: 'Hi {{ subscriber.firstName }}' } }],
      });
      expect(created.status).toBe(201);
      const res = await t.api('put', `/v1/workflows/${created.body._id}`).send({
        steps: [
          { template: { type: 'in_app', content: 'ok', cta: { data: { url: `{% include 'package.json' %}` } } } },
        ],
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['steps[0].template.cta.data.url']);
      const stored = await t.api('get', `/v1/workflows/${created.body._id}`).expect(200);
      expect(stored.body.steps[0].template.content).toBe('Hi {{ subscriber.firstName }}');
    });
  });

  describe('stopped when rendered', () => {
    /** Polls /health every 50 ms while `work` runs; returns the slowest answer. */
    async function slowestHealthDuring(work: () => Promise<unknown>): Promise<number> {
      let done = false;
      let slowest = 0;
      const probe = (async () => {
        while (!done) {
          const started = performance.now();
          const res = await t.http.get('/health');
          expect(res.status).toBe(200);
          slowest = Math.max(slowest, performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      try {
        await work();
      } finally {
        done = true;
        await probe;
      }
      return slowest;
    }

    it.each(HOSTILE_RENDERS)(
      '%s fails its job with the limit in the detail, /health answers meanwhile, the next trigger is delivered',
      async (_name, content, limit) => {
        const created = await t
          .api('post', '/v1/workflows')
          .send({ name: `hostile ${_name}`, steps: [{ template: { type: 'in_app', content } }] });
        expect(created.status).toBe(201);
        const identifier = created.body.triggers[0].identifier as string;
        let settled: Awaited<ReturnType<typeof triggerAndSettle>> | undefined;
        const slowest = await slowestHealthDuring(async () => {
          settled = await triggerAndSettle(
            t,
            { name: identifier, to: ['hostile-a', 'hostile-b'], payload: { big: 'y'.repeat(20_000) } },
            undefined,
            30_000,
          );
        });
        expect(slowest).toBeLessThan(1_000);
        expect(settled!.jobs.map((job) => job.status)).toEqual(['failed', 'failed']);
        const [detail] = (await detailsOf(t, settled!.jobs[0].id)).filter((row) => row.status === 'Failed');
        expect(detail.detail).toMatch(/^Template of template\.content exceeded the /);
        expect(detail.detail).toMatch(limit);
        expect(await messagesOf(t, settled!.transactionId)).toHaveLength(0);

        const normal = await createWorkflow(t, { steps: [inApp('Hello {{ subscriber.subscriberId }}')] });
        const after = await triggerAndSettle(t, { name: normal.identifier, to: 'after-hostile' });
        expect(after.jobs.map((job) => job.status)).toEqual(['completed']);
        expect((await messagesOf(t, after.transactionId)).map((message) => message.content)).toEqual([
          'Hello after-hostile',
        ]);
      },
    );

    it('a stored template that names a file (saved before templates were checked) fails its job without reading the file', async () => {
      for (const [, content] of FILE_PROBES) {
        const workflow = await createWorkflow(t, { steps: [inApp(content)] });
        const { transactionId, jobs } = await triggerAndSettle(t, { name: workflow.identifier, to: 'file-probe' });
        expect(jobs.map((job) => job.status)).toEqual(['failed']);
        const details = await detailsOf(t, jobs[0].id);
        expect(details.map((row) => row.detail).join('\n')).toMatch(/is not available: templates cannot load files/);
        const seen = JSON.stringify([details, await messagesOf(t, transactionId), await jobsOf(t, transactionId)]);
        for (const text of FILE_TEXT) expect(seen).not.toContain(JSON.stringify(text).slice(1, -1));
      }
    });
  });
});
