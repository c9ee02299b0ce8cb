import { newId } from '#common';
import { WebhookDeliveryRepository } from '#dal';
import { insertMessages } from '../../support/builders.js';
import type { TestApp } from '../../support/test-app.js';
import type { Body } from '../../support/untyped-json.js';

/** One of every resource an id or key in a route can name, in one environment. */
export interface SeededResources {
  subscriberId: string;
  workflowId: string;
  workflowIdentifier: string;
  topicKey: string;
  tenantIdentifier: string;
  integrationId: string;
  messageId: string;
  transactionId: string;
  layoutId: string;
  /** An environment variable: it belongs to the organization, not to the environment that created it. */
  variableKey: string;
  /** The environment of the key that seeded them. */
  environmentId: string;
  /** A context of type `primary` (the `type` every route's path is given), named by `id`. */
  contextId: string;
  /** A second API key of the environment (the routes that list and revoke keys name it). */
  keyId: string;
  /** A webhook endpoint and one delivery of an event to it. */
  endpointId: string;
  deliveryId: string;
  /** Secrets given to the API, for the log and at-rest scans. */
  credentialValues: string[];
  /** A dashboard user and one session of the user the requests sign in as (set by the caller that signs in). */
  dashboardUserId?: string;
  dashboardSessionId?: string;
}

function expectCreated(res: { status: number; body: Body }, what: string): Body {
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`seeding ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Creates the resources through the API with `apiKey` (its environment), plus one message row. */
export async function seedResources(t: TestApp, apiKey: string, label = newId().slice(-8)): Promise<SeededResources> {
  const subscriber = expectCreated(
    await t
      .api('post', '/v2/subscribers', apiKey)
      .send({ subscriberId: `seed-${label}`, firstName: 'Seed', email: `seed-${label}@example.com` }),
    'subscriber',
  );
  const workflow = expectCreated(
    await t.api('post', '/v1/workflows', apiKey).send({
      name: `Seed ${label}`,
      steps: [{ template: { type: 'in_app', content: 'Hi {{subscriber.firstName}}' } }],
    }),
    'workflow',
  );
  const topicKey = `seed-topic-${label}`;
  expectCreated(await t.api('post', '/v2/topics', apiKey).send({ key: topicKey, name: 'Seed topic' }), 'topic');
  expectCreated(
    await t
      .api('post', `/v2/topics/${topicKey}/subscriptions`, apiKey)
      .send({ subscriptions: [subscriber.subscriberId] }),
    'subscription',
  );
  const tenantIdentifier = `seed-tenant-${label}`;
  expectCreated(
    await t.api('post', '/v1/tenants', apiKey).send({ identifier: tenantIdentifier, name: 'Seed tenant' }),
    'tenant',
  );
  const credentialValues = [`SG.secret-${newId()}`, `smtp-password-${newId()}`];
  const integration = expectCreated(
    await t.api('post', '/v1/integrations', apiKey).send({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: `seed-sendgrid-${label}`,
      credentials: { apiKey: credentialValues[0], from: 'seed@example.com', password: credentialValues[1] },
      active: true,
    }),
    'integration',
  );
  const transactionId = `seed-tx-${label}`;
  expectCreated(
    await t
      .api('post', '/v1/events/trigger', apiKey)
      .send({ name: workflow.triggers[0].identifier, to: subscriber.subscriberId, transactionId, payload: {} }),
    'trigger',
  );
  const layoutId = `seed-layout-${label}`;
  expectCreated(await t.api('post', '/v2/layouts', apiKey).send({ layoutId, name: 'Seed layout' }), 'layout');
  expectCreated(
    await t.api('post', '/v2/translations', apiKey).send({
      resourceType: 'workflow',
      resourceId: workflow.triggers[0].identifier,
      locale: 'en_US',
      content: { greeting: 'Hello {{subscriber.firstName}}' },
    }),
    'translation',
  );
  const variableKey = `SEED_${label.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  const variableSecret = `variable-secret-${newId()}`;
  credentialValues.push(variableSecret);
  const environment = (await t.api('get', '/v1/environments/me', apiKey)).body as Body;
  expectCreated(
    await t.api('post', '/v1/environment-variables', apiKey).send({
      key: variableKey,
      isSecret: true,
      values: [{ _environmentId: environment._id, value: variableSecret }],
    }),
    'environment variable',
  );
  const secondKey = expectCreated(
    await t.api('post', `/v1/environments/${environment._id as string}/api-keys`, apiKey),
    'api key',
  );
  credentialValues.push(secondKey.key as string);
  const contextId = `seed-context-${label}`;
  expectCreated(
    await t.api('post', '/v2/contexts', apiKey).send({ type: 'primary', id: contextId, data: { seeded: true } }),
    'context',
  );
  const [message] = await insertMessages(t, subscriber, [{ channel: 'in_app', content: 'seeded', transactionId }]);
  const endpoint = expectCreated(
    await t
      .api('post', '/v1/webhook-endpoints', apiKey)
      .send({ url: `https://example.com/hooks/${label}`, enabled: false }),
    'webhook endpoint',
  );
  const event = {
    id: newId(),
    type: 'message.sent',
    body: JSON.stringify({ type: 'message.sent', timestamp: new Date().toISOString(), data: {} }),
  };
  const deliveries = t.app.get(WebhookDeliveryRepository);
  await deliveries.record(
    t.db,
    environment._id as string,
    [{ id: endpoint._id as string, eventTypes: [] }],
    [event],
    new Date(),
  );
  const [{ id: deliveryId }] = (await deliveries.list(environment._id as string, endpoint._id as string, 1)).rows;
  return {
    subscriberId: subscriber.subscriberId,
    workflowId: workflow._id,
    workflowIdentifier: workflow.triggers[0].identifier,
    topicKey,
    tenantIdentifier,
    integrationId: integration._id,
    messageId: message.id,
    transactionId,
    layoutId,
    variableKey,
    environmentId: environment._id as string,
    contextId,
    keyId: secondKey._id as string,
    endpointId: endpoint._id as string,
    deliveryId,
    credentialValues,
  };
}

/** The value of a path parameter that names the seeded resource. */
export function seededParam(name: string, seeded: SeededResources): string {
  const values: Record<string, string> = {
    subscriberId: seeded.subscriberId,
    workflowId: seeded.workflowId,
    key: seeded.topicKey,
    identifier: seeded.tenantIdentifier,
    integrationId: seeded.integrationId,
    messageId: seeded.messageId,
    // The v2 inbox routes name a message `notificationId`, and a button by its type.
    notificationId: seeded.messageId,
    actionType: 'primary',
    type: 'primary',
    transactionId: seeded.transactionId,
    externalSubscriberId: seeded.subscriberId,
    providerId: 'slack',
    layoutId: seeded.layoutId,
    // /v2/translations/{resourceType}/{resourceId}/{locale}: the seeded workflow's en_US translation.
    resourceType: 'workflow',
    resourceId: seeded.workflowIdentifier,
    locale: 'en_US',
    variableKey: seeded.variableKey,
    environmentId: seeded.environmentId,
    targetEnvironmentId: seeded.environmentId,
    // /v2/contexts/{type}/{id}: the seeded context's type is `primary`, as above.
    id: seeded.contextId,
    // The seeded workflow's one step, named after its type: /v2/workflows derives its stepId from the name.
    stepId: 'in-app',
    endpointId: seeded.endpointId,
    deliveryId: seeded.deliveryId,
    keyId: seeded.keyId,
    ...(seeded.dashboardUserId && { userId: seeded.dashboardUserId }),
    ...(seeded.dashboardSessionId && { sessionId: seeded.dashboardSessionId }),
  };
  const value = values[name];
  if (value === undefined) throw new Error(`no seeded resource for path parameter ${name}`);
  return value;
}
