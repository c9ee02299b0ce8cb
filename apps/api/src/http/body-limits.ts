import type { AppConfig } from '#common';

/** Maximum events of one bulk trigger (spec: at most 100). */
export const MAX_BULK_EVENTS = 100;
/** Bulk subscriber upserts carry up to 500 full subscriber objects. */
const BULK_SUBSCRIBERS_LIMIT = 2 * 1024 * 1024;

/**
 * Per-route body limits (BEHAVIOR "Body limits"): triggers may carry large payloads, everything else
 * is small. Returns the limit that applies to a request path.
 */
export function bodyLimitFor(path: string, config: AppConfig): number {
  if (path.startsWith('/v1/events/trigger/bulk')) return config.triggerBodyLimit * MAX_BULK_EVENTS;
  if (path.startsWith('/v1/events/trigger')) return config.triggerBodyLimit;
  if (path.startsWith('/v1/subscribers/bulk')) return Math.max(config.bodyLimit, BULK_SUBSCRIBERS_LIMIT);
  return config.bodyLimit;
}

export function largestBodyLimit(config: AppConfig): number {
  return Math.max(config.bodyLimit, config.triggerBodyLimit * MAX_BULK_EVENTS);
}
