import type { NotificationItem } from '../../api/types';

const FAILED = new Set(['failed']);
const SETTLED = new Set(['completed', 'canceled', 'merged', 'skipped', 'failed']);

/** One word for a notification from its jobs: failed if any failed, done once all settled, else in progress. */
export function notificationStatus(notification: NotificationItem): 'failed' | 'done' | 'in progress' {
  if (notification.jobs.some((job) => FAILED.has(job.status))) return 'failed';
  return notification.jobs.every((job) => SETTLED.has(job.status)) ? 'done' : 'in progress';
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * `2026-11-29 21:05:12` in the browser's time zone: sortable, the same in every locale, and without Intl,
 * whose first use (loading the locale's data) cost the first paint of Activity tens of milliseconds.
 */
export function formatTime(iso: string): string {
  const time = new Date(iso);
  const date = `${time.getFullYear()}-${twoDigits(time.getMonth() + 1)}-${twoDigits(time.getDate())}`;
  return `${date} ${twoDigits(time.getHours())}:${twoDigits(time.getMinutes())}:${twoDigits(time.getSeconds())}`;
}
