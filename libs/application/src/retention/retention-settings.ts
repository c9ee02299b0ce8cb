import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN, type RetentionDays } from '#common';
import type { EnvironmentRetention } from '#dal';

/** The days an environment keeps its rows: its own overrides, else the deployment's settings. */
export function retentionOf(defaults: RetentionDays, environment: Omit<EnvironmentRetention, 'id'>): RetentionDays {
  return {
    activityDays: environment.retentionActivityDays ?? defaults.activityDays,
    messagesDays: environment.retentionMessagesDays ?? defaults.messagesDays,
  };
}

/** A CLI value: whole days within the bounds, or `default` (null: the override is removed). */
export function parseRetentionDays(flag: string, raw: string): number | null {
  if (raw === 'default') return null;
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < RETENTION_DAYS_MIN || days > RETENTION_DAYS_MAX)
    throw new Error(
      `${flag} takes whole days from ${RETENTION_DAYS_MIN} to ${RETENTION_DAYS_MAX}, or default; got "${raw}"`,
    );
  return days;
}
