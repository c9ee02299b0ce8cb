import { expect } from '@jest/globals';
import { createSubscriber } from './builders.js';
import type { ProviderReceiver } from './receivers.js';
import type { TestApp } from './test-app.js';
import type { Body } from './untyped-json.js';

/**
 * A fresh environment (its own API key, so integrations of other tests cannot serve its messages)
 * with these subscribers and a workflow `workflowIdentifier` of one step. Its integrations are
 * created through the API; `sendgrid(identifier)` sends to `receiver` under `/<identifier>`, so the
 * receiver tells the integrations apart.
 */
export async function createProviderEnvironment(
  t: TestApp,
  receiver: ProviderReceiver,
  setup: { workflowIdentifier: string; step: Record<string, unknown>; subscribers: Body[] },
) {
  const { apiKey, environment } = await t.createForeignKey();
  const integration = async (body: Record<string, unknown>): Promise<Body> => {
    const res = await t.api('post', '/v1/integrations', apiKey).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const sendgrid = (identifier: string, extra: Record<string, unknown> = {}) =>
    integration({
      providerId: 'sendgrid',
      channel: 'email',
      identifier,
      credentials: {
        apiKey: `SG.${identifier}`,
        from: 'no-reply@acme.test',
        baseUrl: `${receiver.url}/${identifier}`,
      },
      ...extra,
    });
  for (const subscriber of setup.subscribers) await createSubscriber(t, subscriber, apiKey);
  const { workflowIdentifier: identifier, step } = setup;
  const workflow = await t.api('post', '/v1/workflows', apiKey).send({ name: identifier, identifier, steps: [step] });
  expect(workflow.status).toBe(201);
  return { apiKey, environmentId: environment.id, integration, sendgrid };
}
