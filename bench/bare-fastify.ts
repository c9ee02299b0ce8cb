import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

/**
 * The HTTP ceiling: Fastify with no framework, validation, database or queue, answering the
 * trigger route with a TriggerResponse-shaped body. Run as its own process, like the api.
 */
const app = Fastify({ logger: false });
app.get('/health', () => ({ status: 'ok' }));
app.post('/v1/events/trigger', async (_request, reply) => {
  reply.code(201);
  return { acknowledged: true, status: 'processed', transactionId: randomUUID() };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
