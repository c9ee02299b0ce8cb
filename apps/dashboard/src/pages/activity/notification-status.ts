import type { NotificationItem } from '../../api/types';

const FAILED = new Set(['failed']);
const SETTLED = new Set(['completed', 'canceled', 'merged', 'skipped', 'failed']);

/** One word for a notification from its jobs: failed if any failed, done once all settled, else in progress. */
export function notificationStatus(notification: NotificationItem): 'failed' | 'done' | 'in progress' {
  if (notification.jobs.some((job) => FAILED.has(job.status))) return 'failed';
  return notification.jobs.every((job) => SETTLED.has(job.status)) ? 'done' : 'in progress';
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
