import { describe, expect, it } from '@jest/globals';
import { statusFilterSql, statusKey } from './activity-status-condition.js';

describe('the feed status filter', () => {
  it('keys a set of statuses by its members in a fixed order, each once', () => {
    expect(statusKey(undefined)).toBe('');
    expect(statusKey([])).toBe('');
    expect(statusKey(['completed', 'failed', 'completed'])).toBe('failed,completed');
    expect(statusKey(['pending', 'completed', 'failed'])).toBe('failed,pending,completed');
  });

  it('adds nothing to the statement for no status or all of them', () => {
    expect(statusFilterSql(statusKey(undefined))).toBeUndefined();
    expect(statusFilterSql(statusKey(['failed', 'pending', 'completed']))).toBeUndefined();
  });

  it('starts from the jobs for the rare statuses and walks the feed for the sets with completed', () => {
    for (const rare of [['failed'], ['pending'], ['failed', 'pending']] as const) {
      const sql = statusFilterSql(statusKey(rare));
      expect(sql?.from).toContain('CROSS JOIN LATERAL');
      expect(sql?.condition).toBeUndefined();
    }
    for (const common of [['completed'], ['failed', 'completed'], ['pending', 'completed']] as const) {
      const sql = statusFilterSql(statusKey(common));
      expect(sql?.from).toBe('notifications n');
      expect(sql?.condition).toBe(
        `activity_notification_status($1, n.id) IN (${common.map((s) => `'${s}'`).join(', ')})`,
      );
    }
  });
});
