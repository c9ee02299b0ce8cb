import { sql } from 'drizzle-orm';
import { bigserial, customType, index, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * socket.io's PostgreSQL adapter: a message too large for a NOTIFY (8000 bytes) is stored here and
 * the NOTIFY carries its id. The adapter writes, reads and expires the rows itself (after 30 s); the
 * table is ours only so that it exists, migrated, before any process publishes.
 */
export const socketIoAttachments = pgTable(
  'socket_io_attachments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).default(sql`now()`),
    payload: bytea('payload'),
  },
  // The adapter's expiry deletes by age.
  (t) => [index('socket_io_attachments_created_idx').on(t.createdAt)],
);

/**
 * One row per running api process (a random id per boot), its heartbeat refreshed periodically and
 * removed at a graceful stop: a subscriber set online by a process without a recent heartbeat was
 * left behind by a crash (see the api's presence sweeper).
 */
export const apiProcesses = pgTable('api_processes', {
  id: uuid('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull(),
});
