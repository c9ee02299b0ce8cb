import { describe, expect, it } from '@jest/globals';
import { parseConfig } from './app-config.js';

describe('retention and maintenance settings', () => {
  it('keeps activity 30 days and messages 90 days, and runs the maintenance hourly, by default', () => {
    expect(parseConfig({})).toMatchObject({
      retention: { activityDays: 30, messagesDays: 90 },
      maintenanceIntervalMinutes: 60,
    });
  });

  it('takes whole days from 1 to 3650', () => {
    const config = parseConfig({ RETENTION_ACTIVITY_DAYS: '1', RETENTION_MESSAGES_DAYS: '3650' });
    expect(config.retention).toEqual({ activityDays: 1, messagesDays: 3650 });
  });

  it.each([
    ['RETENTION_ACTIVITY_DAYS', '0'],
    ['RETENTION_ACTIVITY_DAYS', '3651'],
    ['RETENTION_ACTIVITY_DAYS', '7.5'],
    ['RETENTION_MESSAGES_DAYS', 'forever'],
    ['RETENTION_MESSAGES_DAYS', '-1'],
    ['MAINTENANCE_INTERVAL_MINUTES', '0'],
    ['MAINTENANCE_INTERVAL_MINUTES', '1441'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(
      new RegExp(`^${name} must be an integer between \\d+ and \\d+, got "${value}"$`),
    );
  });
});
