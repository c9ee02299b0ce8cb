import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ModulesContainer } from '@nestjs/core';
import { WorkflowCache } from '#application';
import { messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const inApp = (content: string) => ({ template: { type: 'in_app', content } });

/** Every provider instance of the app that holds a WorkflowCache, and the caches they hold. */
function cacheHolders(t: TestApp): { holder: string; cache: WorkflowCache }[] {
  const holders: { holder: string; cache: WorkflowCache }[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.providers.values()) {
      const instance: unknown = wrapper.instance;
      if (typeof instance !== 'object' || instance === null) continue;
      for (const value of Object.values(instance))
        if (value instanceof WorkflowCache) holders.push({ holder: wrapper.name as string, cache: value });
    }
  }
  return holders;
}

describe('WorkflowCache: one per process under ROLE=all', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is provided by one module, and the trigger routes, the workflow routes and the worker hold that instance', () => {
    const provided = [...t.app.get(ModulesContainer).values()].filter((module) => module.providers.has(WorkflowCache));
    expect(provided.map((module) => module.metatype.name)).toEqual(['WorkflowCacheModule']);

    const holders = cacheHolders(t);
    expect(holders.map(({ holder }) => holder).sort()).toEqual(
      expect.arrayContaining(['FanOutService', 'StepContextLoader', 'TriggerEventUseCase', 'WorkflowsService']),
    );
    expect(new Set(holders.map(({ cache }) => cache)).size).toBe(1);
  });

  it('a deactivation is seen by the next trigger at once, not after the cache lifetime', async () => {
    const created = await t.api('post', '/v1/workflows').send({ name: 'Cache toggle', steps: [inApp('Hi')] });
    const trigger = () =>
      t.api('post', '/v1/events/trigger').send({ name: created.body.triggers[0].identifier, to: 's-1' });
    expect((await trigger()).body.status).toBe('processed');

    await t.api('put', `/v1/workflows/${created.body._id}/status`).send({ active: false }).expect(200);
    expect((await trigger()).body.status).toBe('trigger_not_active');
  });

  it('an edit of the steps is seen by the worker at once: the next event is rendered with the new content', async () => {
    const created = await t.api('post', '/v1/workflows').send({ name: 'Cache edit', steps: [inApp('first')] });
    const identifier = created.body.triggers[0].identifier as string;
    const first = await triggerAndSettle(t, { name: identifier, to: 's-2' });
    expect((await messagesOf(t, first.transactionId)).map((message) => message.content)).toEqual(['first']);

    await t
      .api('put', `/v1/workflows/${created.body._id}`)
      .send({ steps: [inApp('second')] })
      .expect(200);
    const second = await triggerAndSettle(t, { name: identifier, to: 's-2' });
    expect((await messagesOf(t, second.transactionId)).map((message) => message.content)).toEqual(['second']);
  });
});
