import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { messages } from '#dal';
import { detailsOf, messagesOf, triggerAndSettle } from '../support/engine-fixtures.js';
import { connected, openInboxSocket, type RecordedSocket } from '../support/inbox-socket.js';
import { startTestApp } from '../support/test-app.js';
import type { Body } from '../support/untyped-json.js';
import { sessionToken, startInboxApp, type InboxApp } from './inbox-app.js';

const XSS = 'javascript:alert(document.domain)';
const UNSAFE_URL = /must be an http\(s\) URL or a relative one/;

/** An in-app step whose redirect and both buttons' urls come from the payload, in each stored shape. */
const templatedStep = {
  template: {
    type: 'in_app',
    content: 'Order {{payload.n}}',
    cta: {
      type: 'redirect',
      data: { url: '{{payload.redirect}}' },
      action: {
        buttons: [
          { type: 'primary', content: 'Open', url: '{{payload.primary}}' },
          { type: 'secondary', content: 'More', redirect: { url: '{{payload.secondary}}' } },
        ],
      },
    },
  },
};

const inAppWithRedirect = (url: string) => ({ template: { type: 'in_app', content: 'Hi', cta: { data: { url } } } });

describe('redirect and action urls of in-app messages', () => {
  let app: InboxApp;
  let workflowId: string;
  const sockets: RecordedSocket[] = [];

  const workflowCount = async () =>
    (await app.t.api('get', '/v1/workflows?limit=100').expect(200)).body.totalCount as number;
  const inboxList = async (token: string) => {
    const res = await fetch(`${app.url}/v1/inbox/notifications?limit=10`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { data: Body[] };
  };
  /** A subscriber with an inbox session and a connected socket. */
  const openInbox = async (subscriberId: string) => {
    const token = await sessionToken(app, subscriberId);
    const socket = openInboxSocket(app.url, token);
    sockets.push(socket);
    await connected(socket);
    return { token, socket };
  };
  const deliver = (subscriberId: string, payload: Record<string, unknown>) =>
    triggerAndSettle(app.t, { name: workflowId, to: subscriberId, payload: { n: 1, ...payload } });

  beforeAll(async () => {
    app = await startInboxApp();
    const res = await app.t.api('post', '/v1/workflows').send({ name: 'Redirect urls', steps: [templatedStep] });
    expect(res.status).toBe(201);
    workflowId = res.body.triggers[0].identifier as string;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  describe('a literal url is refused when the workflow is saved', () => {
    it.each([
      ['javascript: as the redirect', [inAppWithRedirect(XSS)], 'steps[0].template.cta.data.url', XSS],
      [
        'an obfuscated scheme as a button url',
        [
          {
            template: {
              type: 'in_app',
              content: 'Hi',
              cta: { action: { buttons: [{ type: 'primary', content: 'Go', url: ' \tJaVa\nScRiPt:alert(1)' }] } },
            },
          },
        ],
        'steps[0].template.cta.action.buttons[0].url',
        ' \tJaVa\nScRiPt:alert(1)',
      ],
      [
        'data: as a button redirect',
        [
          { template: { type: 'email', subject: 'x', content: 'fine' } },
          {
            template: {
              type: 'in_app',
              content: 'Hi',
              cta: {
                action: {
                  buttons: [
                    { type: 'secondary', content: 'Go', redirect: { url: 'data:text/html,<script>x</script>' } },
                  ],
                },
              },
            },
          },
        ],
        'steps[1].template.cta.action.buttons[0].redirect.url',
        'data:text/html,<script>x</script>',
      ],
      [
        "a variant's redirect",
        [{ ...inAppWithRedirect('/fine'), variants: [inAppWithRedirect('vbscript:msgbox(1)')] }],
        'steps[0].variants[0].template.cta.data.url',
        'vbscript:msgbox(1)',
      ],
      [
        'a literal javascript: scheme before a Liquid tag',
        [inAppWithRedirect('javascript:{{payload.code}}')],
        'steps[0].template.cta.data.url',
        'javascript:{{payload.code}}',
      ],
    ])('POST: 422 on %s, naming the field, nothing stored', async (_name, steps, field, value) => {
      const before = await workflowCount();
      const res = await app.t.api('post', '/v1/workflows').send({ name: `bad ${_name}`, steps });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        statusCode: 422,
        error: expect.any(String),
        path: '/v1/workflows',
        timestamp: expect.any(String),
        errors: { [field]: { messages: [expect.stringMatching(UNSAFE_URL)], value } },
      });
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.message).toContain(field);
      expect(await workflowCount()).toBe(before);
    });

    it('PUT: http(s), relative and templated urls are saved; a javascript: one is a 422 and changes nothing', async () => {
      const created = await app.t
        .api('post', '/v1/workflows')
        .send({ name: 'Safe then not', steps: [inAppWithRedirect('/orders')] })
        .expect(201);
      const id = created.body._id as string;
      const put = (url: string) => app.t.api('put', `/v1/workflows/${id}`).send({ steps: [inAppWithRedirect(url)] });
      for (const url of [
        'https://example.com/a?b=1&c=2',
        '/orders/7',
        '#top',
        '//cdn.example.com/x',
        '{{payload.url}}',
      ])
        expect((await put(url)).status).toBe(200);
      const res = await put(XSS);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({
        'steps[0].template.cta.data.url': { messages: [expect.stringMatching(UNSAFE_URL)], value: XSS },
      });
      const stored = (await app.t.api('get', `/v1/workflows/${id}`).expect(200)).body;
      expect(stored.steps[0].template.cta).toEqual({ data: { url: '{{payload.url}}' } });
    });

    it('WORKFLOWS_DIR: a file with such a url stops the boot, naming the file and the field', async () => {
      const directory = mkdtempSync(join(tmpdir(), 'workflows-'));
      try {
        writeFileSync(join(directory, 'xss.json'), JSON.stringify({ name: 'Xss', steps: [inAppWithRedirect(XSS)] }));
        const failure = await startTestApp({ env: { WORKFLOWS_DIR: directory } }).then(
          async (started) => {
            await started.close();
            return undefined;
          },
          (error: Error) => error,
        );
        expect(failure?.message).toMatch(/xss\.json/);
        expect(failure?.message).toMatch(/steps\[0\]\.template\.cta\.data\.url/);
        expect(failure?.message).toMatch(UNSAFE_URL);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  });

  describe('a templated url is checked when the step renders it', () => {
    it('a url rendering to javascript: never reaches the inbox or its socket, and the run says why', async () => {
      const { token, socket } = await openInbox('url-mallory');
      const { transactionId, jobs } = await deliver('url-mallory', {
        redirect: XSS,
        primary: '\tJaVa\nScRiPt:alert(1)',
        secondary: 'data:text/html,<script>alert(1)</script>',
      });

      const [row] = await messagesOf(app.t, transactionId);
      expect(row.status).toBe('sent');
      const { data } = await inboxList(token);
      expect(data).toHaveLength(1);
      expect(data[0]).toMatchObject({
        body: 'Order 1',
        primaryAction: { label: 'Open' },
        secondaryAction: { label: 'More' },
      });
      expect(data[0].redirect).toBeUndefined();
      expect((data[0].primaryAction as Body).redirect).toBeUndefined();
      expect((data[0].secondaryAction as Body).redirect).toBeUndefined();
      const { message } = (await socket.next('notification_received')) as { message: Body };
      expect(message._id).toBe(row.id);
      for (const seen of [data, message, row.cta]) expect(JSON.stringify(seen)).not.toMatch(/script:|data:text/i);

      const inAppJob = jobs.find((job) => job.type === 'in_app')!;
      expect(inAppJob.status).toBe('completed');
      const warnings = (await detailsOf(app.t, inAppJob.id)).filter((detail) => detail.status === 'Warning');
      expect(warnings.map((detail) => detail.detail)).toEqual([
        `cta.data.url ${JSON.stringify(XSS)} was removed: only http(s) and relative URLs reach the inbox`,
        'cta.action.buttons[0].url "\\tJaVa\\nScRiPt:alert(1)" was removed: only http(s) and relative URLs reach the inbox',
        'cta.action.buttons[1].redirect.url "data:text/html,<script>alert(1)</script>" was removed: only http(s) and relative URLs reach the inbox',
      ]);
    });

    it('https and relative urls still come through, next to one that is dropped', async () => {
      const { token, socket } = await openInbox('url-ann');
      const https = 'https://shop.example.com/orders/7?tab=items&x=1';
      await deliver('url-ann', { redirect: https, primary: '/orders/7', secondary: XSS });

      const { data } = await inboxList(token);
      expect(data[0]).toMatchObject({
        redirect: { url: https },
        primaryAction: { label: 'Open', redirect: { url: '/orders/7' } },
        secondaryAction: { label: 'More' },
      });
      expect((data[0].secondaryAction as Body).redirect).toBeUndefined();
      const { message } = (await socket.next('notification_received')) as { message: Body };
      expect(message.cta).toEqual({
        type: 'redirect',
        data: { url: https },
        action: {
          buttons: [
            { type: 'primary', content: 'Open', url: '/orders/7' },
            { type: 'secondary', content: 'More', redirect: {} },
          ],
        },
      });
    });
  });

  it('a message stored with a bad url before this check is read without it', async () => {
    const { token } = await openInbox('url-old');
    const { transactionId } = await deliver('url-old', { redirect: '/fine', primary: '/fine', secondary: '/fine' });
    const [row] = await messagesOf(app.t, transactionId);
    const storedBefore = {
      type: 'redirect',
      data: { url: XSS },
      action: { buttons: [{ type: 'primary', content: 'Open', url: XSS, redirect: { url: ' JAVASCRIPT:x' } }] },
    };
    await app.t.db.update(messages).set({ cta: storedBefore }).where(eq(messages.id, row.id));

    const { data } = await inboxList(token);
    expect(data[0]).toMatchObject({ id: row.id, primaryAction: { label: 'Open' } });
    const feed = await app.t.api('get', '/v1/subscribers/url-old/notifications/feed').expect(200);
    const listed = await app.t.api('get', '/v1/messages?subscriberId=url-old').expect(200);
    expect(feed.body.data[0].cta).toEqual({
      type: 'redirect',
      data: {},
      action: { buttons: [{ type: 'primary', content: 'Open', redirect: {} }] },
    });
    for (const body of [data, feed.body, listed.body]) expect(JSON.stringify(body)).not.toMatch(/javascript/i);
  });
});
