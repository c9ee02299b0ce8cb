import { eq } from 'drizzle-orm';
import { Novu } from '@novu/js';
import { messages, workflows, type WorkflowRow } from '#dal';
import { createWorkflow, inApp, triggerAndSettle } from '../support/engine-fixtures.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

/** The real service on a 127.0.0.1 port, for @novu/js (which needs a URL) and plain fetch calls. */
export interface InboxApp {
  t: TestApp;
  url: string;
  /** The Development environment's applicationIdentifier. */
  applicationIdentifier: string;
  close(): Promise<void>;
}

export async function startInboxApp(options: TestAppOptions = {}): Promise<InboxApp> {
  const t = await startTestApp(options);
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as { port: number };
  return {
    t,
    url: `http://127.0.0.1:${port}`,
    applicationIdentifier: t.environment.identifier,
    close: () => t.close(),
  };
}

/** POST /v1/inbox/session as a browser would send it, without the client. */
export function postSession(app: InboxApp, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${app.url}/v1/inbox/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ applicationIdentifier: app.applicationIdentifier, ...body }),
  });
}

/** The token of a new session of this subscriber. */
export async function sessionToken(app: InboxApp, subscriberId: string): Promise<string> {
  const res = await postSession(app, { subscriber: { subscriberId } });
  if (res.status !== 201) throw new Error(`session answered ${res.status}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

type SessionResult = { data?: Record<string, unknown>; error?: unknown };

/** A @novu/js client with its session started; the session's answer or error as the client reported it. */
export async function openInbox(
  app: InboxApp,
  subscriber: { subscriberId: string } & Record<string, unknown>,
  extra: { subscriberHash?: string; applicationIdentifier?: string } = {},
): Promise<{ novu: Novu; session: SessionResult }> {
  const novu = new Novu({
    applicationIdentifier: extra.applicationIdentifier ?? app.applicationIdentifier,
    subscriber,
    subscriberHash: extra.subscriberHash,
    apiUrl: app.url,
    socketUrl: app.url,
    useCache: false,
  });
  const session = await new Promise<SessionResult>((resolve) => {
    novu.on('session.initialize.resolved', (event) => resolve(event as SessionResult));
  });
  return { novu, session };
}

/** A workflow of one in-app step with both action buttons, tagged. */
export async function createInboxWorkflow(t: TestApp, identifier: string, tags: string[] = []): Promise<WorkflowRow> {
  const row = await createWorkflow(t, {
    identifier,
    steps: [
      inApp('Hello {{subscriber.firstName}}, invoice {{payload.n}}', {
        template: {
          type: 'in_app',
          content: 'Hello {{subscriber.firstName}}, invoice {{payload.n}}',
          subject: 'Invoice {{payload.n}}',
          data: { n: '{{payload.n}}' },
          cta: {
            data: { url: '/invoices' },
            action: {
              buttons: [
                { type: 'primary', content: 'Pay' },
                { type: 'secondary', content: 'Later' },
              ],
            },
          },
        },
      }),
    ],
  });
  if (tags.length) await t.db.update(workflows).set({ tags }).where(eq(workflows.id, row.id));
  return row;
}

/** Triggers the workflow to one subscriber and answers the in-app message's id once delivered. */
export async function deliver(t: TestApp, workflowId: string, subscriberId: string, n: number): Promise<string> {
  const { transactionId } = await triggerAndSettle(t, { name: workflowId, to: subscriberId, payload: { n } });
  const [row] = await t.db.select({ id: messages.id }).from(messages).where(eq(messages.transactionId, transactionId));
  if (!row) throw new Error(`no in-app message for ${transactionId}`);
  return row.id;
}
