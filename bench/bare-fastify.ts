import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

/**
 * The HTTP ceiling: Fastify with no framework, validation, database or queue, answering the
 * trigger route with a TriggerResponse-shaped body, and the inbox list route with a canned page of
 * ten notifications of the inbox's shape. Run as its own process, like the api.
 */
const app = Fastify({ logger: false });
const inboxPage = {
  data: Array.from({ length: 10 }, (_, i) => ({
    id: randomUUID(),
    transactionId: randomUUID(),
    subject: undefined,
    body: `Hello Bench ${i}, order inbox is on its way`,
    to: { id: randomUUID(), subscriberId: `bench-sub-${i}`, firstName: `Bench ${i}` },
    isRead: false,
    isSeen: false,
    isArchived: false,
    isSnoozed: false,
    deliveredAt: [],
    createdAt: new Date().toISOString(),
    channelType: 'in_app',
    tags: [],
    severity: 'none',
    data: {},
    workflow: { id: randomUUID(), identifier: 'bench-inbox', name: 'bench-inbox', critical: false, tags: [] },
  })),
  hasMore: true,
  filter: {},
};
app.get('/v1/inbox/notifications', () => inboxPage);
app.get('/health', () => ({ status: 'ok' }));
app.post('/v1/events/trigger', async (_request, reply) => {
  reply.code(201);
  return { acknowledged: true, status: 'processed', transactionId: randomUUID() };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
