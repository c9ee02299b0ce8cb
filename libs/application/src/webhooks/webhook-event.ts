import { newId } from '#common';
import type { NewWebhookEvent } from '#dal';
import type { WebhookEventType } from './webhook-event-types.js';

/**
 * The most of one event's body: a receiver gets it in one request, and the outbox keeps it until
 * every endpoint has it. Larger data has its biggest top-level fields cut, and names them in
 * `data._truncated`.
 */
export const MAX_WEBHOOK_EVENT_BYTES = 64 * 1024;

/**
 * An event as sent: `{ type, timestamp, data }`; its id is the webhook-id every attempt carries.
 * `subscriberId` (internal): the subscriber it is about, whose erasure removes the stored event.
 */
export function webhookEvent(
  type: WebhookEventType,
  data: Record<string, unknown>,
  now: Date,
  subscriberId?: string,
): NewWebhookEvent {
  const timestamp = now.toISOString();
  let body = JSON.stringify({ type, timestamp, data });
  // UTF-8 takes at most three bytes per UTF-16 unit: most bodies are known to fit without measuring.
  if (body.length * 3 > MAX_WEBHOOK_EVENT_BYTES && Buffer.byteLength(body) > MAX_WEBHOOK_EVENT_BYTES)
    body = JSON.stringify({ type, timestamp, data: bounded(data) });
  return { id: newId(), type, body, subscriberId };
}

/** The data with its largest top-level fields set to null until the rest fits, their names in `_truncated`. */
function bounded(data: Record<string, unknown>): Record<string, unknown> {
  let size = Buffer.byteLength(JSON.stringify(data));
  const sizes = Object.entries(data)
    .map(([key, value]) => ({ key, bytes: Buffer.byteLength(JSON.stringify(value ?? null)) }))
    .sort((a, b) => b.bytes - a.bytes);
  const kept = { ...data };
  const cut: string[] = [];
  for (const { key, bytes } of sizes) {
    if (size <= MAX_WEBHOOK_EVENT_BYTES - 256) break;
    kept[key] = null;
    cut.push(key);
    size -= bytes;
  }
  return { ...kept, _truncated: cut };
}
