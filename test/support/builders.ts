import { expect } from '@jest/globals';
import { newId } from '#common';
import { MessageRepository, SubscriberRepository, type MessageRow, type NewMessageRow } from '#dal';
import type { TestApp } from './test-app.js';
import type { Body } from './untyped-json.js';

/** POST /v2/subscribers; fails the test unless it answers 201. */
export async function createSubscriber(
  t: TestApp,
  fields: Body & { subscriberId?: string } = {},
  apiKey?: string,
): Promise<Body> {
  const body = { subscriberId: `sub-${newId().slice(-12)}`, ...fields };
  const res = await t.api('post', '/v2/subscribers', apiKey).send(body);
  expect(res.status).toBe(201);
  return res.body;
}

/** POST /v1/integrations with sensible defaults for a channel provider. */
export async function createIntegration(
  t: TestApp,
  fields: Body & { providerId: string; channel: string },
  apiKey?: string,
): Promise<Body> {
  const res = await t.api('post', '/v1/integrations', apiKey).send({ credentials: {}, ...fields });
  expect(res.status).toBe(201);
  return res.body;
}

/** POST /v2/topics. */
export async function createTopic(t: TestApp, key: string, name?: string, apiKey?: string): Promise<Body> {
  const res = await t.api('post', '/v2/topics', apiKey).send({ key, ...(name ? { name } : {}) });
  expect(res.status).toBe(201);
  return res.body;
}

/**
 * Inserts messages straight through the repository (the engine normally creates them).
 * `subscriber` is a Subscriber response body; the environment is the subscriber's.
 */
export async function insertMessages(
  t: TestApp,
  subscriber: Body,
  rows: Partial<NewMessageRow>[],
): Promise<MessageRow[]> {
  const base = Date.now() - rows.length * 1000;
  return t.app.get(MessageRepository).insertMany(
    rows.map((row, index) => ({
      id: newId(),
      environmentId: subscriber._environmentId as string,
      organizationId: subscriber._organizationId as string,
      subscriberId: subscriber._id as string,
      notificationId: newId(),
      jobId: newId(),
      transactionId: `tx-${newId()}`,
      channel: 'in_app',
      content: `message ${index}`,
      createdAt: new Date(base + index * 1000),
      ...row,
    })),
  );
}

export const subscriberRepository = (t: TestApp) => t.app.get(SubscriberRepository);
