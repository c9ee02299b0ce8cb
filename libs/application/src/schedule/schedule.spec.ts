import { describe, expect, it } from '@jest/globals';
import { isWithinSchedule, nextOpenSlot, parseTime12h, type Schedule } from './schedule.js';
import { validateSchedule } from './schedule-validation.js';
import { resolveTimeZone, zonedToInstant } from './zoned-time.js';

// 2024-01-01 is a Monday.
const at = (iso: string) => new Date(iso);
const nineToFive = { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] };
const weekdays: Schedule = {
  isEnabled: true,
  weeklySchedule: {
    monday: nineToFive,
    tuesday: nineToFive,
    wednesday: nineToFive,
    thursday: nineToFive,
    friday: nineToFive,
  },
};

describe('parseTime12h', () => {
  it.each([
    ['12:00 AM', 0],
    ['12:30 am', 30],
    ['1:05 AM', 65],
    ['01:05 AM', 65],
    ['9:00AM', 540],
    ['11:59 PM', 1439],
    ['12:00 PM', 720],
    ['12:15 pm', 735],
    ['5:00 pm', 1020],
    [' 5:00 PM ', 1020],
  ])('%j → %d', (input, minutes) => {
    expect(parseTime12h(input)).toBe(minutes);
  });

  it.each([
    '13:00 PM',
    '0:30 AM',
    '9:60 AM',
    '9 AM',
    '09:00',
    '17:00',
    '9:00 XM',
    '9:0 AM',
    '',
    'noon',
    900,
    null,
    undefined,
  ])('rejects %j', (input) => {
    expect(parseTime12h(input)).toBeUndefined();
  });
});

describe('validateSchedule', () => {
  it.each([
    [{ isEnabled: false }],
    [{ isEnabled: true, weeklySchedule: { monday: { isEnabled: true } } }],
    [{ isEnabled: true, weeklySchedule: { sunday: { isEnabled: false, hours: [] } } }],
    [{ isEnabled: false, weeklySchedule: {} }],
    [
      {
        isEnabled: true,
        weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '10:00 pm', end: '2:00 AM' }] } },
      },
    ],
    [weekdays],
  ])('accepts %j', (schedule) => {
    expect(validateSchedule(schedule)).toEqual([]);
  });

  it.each([
    [null, 'schedule'],
    ['weekly', 'schedule'],
    [[], 'schedule'],
    [{}, 'schedule.isEnabled'],
    [{ isEnabled: 'yes' }, 'schedule.isEnabled'],
    [{ isEnabled: true }, 'schedule.weeklySchedule'],
    [{ isEnabled: true, weeklySchedule: {} }, 'schedule.weeklySchedule'],
    [{ isEnabled: true, weeklySchedule: [] }, 'schedule.weeklySchedule'],
    [{ isEnabled: true, weeklySchedule: { funday: { isEnabled: true } } }, 'schedule.weeklySchedule.funday'],
    [{ isEnabled: true, weeklySchedule: { Monday: { isEnabled: true } } }, 'schedule.weeklySchedule.Monday'],
    [{ isEnabled: true, weeklySchedule: { monday: true } }, 'schedule.weeklySchedule.monday'],
    [{ isEnabled: true, weeklySchedule: { monday: {} } }, 'schedule.weeklySchedule.monday.isEnabled'],
    [{ isEnabled: true, weeklySchedule: { monday: { isEnabled: 1 } } }, 'schedule.weeklySchedule.monday.isEnabled'],
    [
      { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: 'all' } } },
      'schedule.weeklySchedule.monday.hours',
    ],
    [
      { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: ['9-5'] } } },
      'schedule.weeklySchedule.monday.hours[0]',
    ],
    [
      {
        isEnabled: true,
        weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '17:00', end: '05:00 PM' }] } },
      },
      'schedule.weeklySchedule.monday.hours[0].start',
    ],
    [
      {
        isEnabled: true,
        weeklySchedule: { monday: { isEnabled: true, hours: [nineToFive.hours[0], { start: '9:00 AM' }] } },
      },
      'schedule.weeklySchedule.monday.hours[1].end',
    ],
  ])('rejects %j at %s', (schedule, path) => {
    const issues = validateSchedule(schedule);
    expect(issues.map((issue) => issue.path)).toContain(path);
    expect(issues.every((issue) => issue.message.length > 0)).toBe(true);
  });

  it('reports every problem at once, under the given root path', () => {
    const issues = validateSchedule(
      { weeklySchedule: { moonday: {}, monday: { hours: [{ start: 'x', end: 'y' }] } } },
      'body.schedule',
    );
    expect(issues.map((issue) => issue.path).sort()).toEqual([
      'body.schedule.isEnabled',
      'body.schedule.weeklySchedule.monday.hours[0].end',
      'body.schedule.weeklySchedule.monday.hours[0].start',
      'body.schedule.weeklySchedule.monday.isEnabled',
      'body.schedule.weeklySchedule.moonday',
    ]);
  });
});

describe('isWithinSchedule', () => {
  it('is always open without a schedule or with a disabled one', () => {
    for (const schedule of [null, undefined, { isEnabled: false, weeklySchedule: { monday: { isEnabled: false } } }]) {
      expect(isWithinSchedule(schedule, 'UTC', at('2024-01-01T03:00:00Z'))).toBe(true);
    }
  });

  it.each([
    ['2024-01-01T08:59:59Z', false],
    ['2024-01-01T09:00:00Z', true],
    ['2024-01-01T12:00:00Z', true],
    ['2024-01-01T16:59:59Z', true],
    ['2024-01-01T17:00:00Z', false],
    ['2024-01-05T10:00:00Z', true],
    ['2024-01-06T10:00:00Z', false], // Saturday: no entry
    ['2024-01-07T10:00:00Z', false], // Sunday: no entry
  ])('weekdays 9-5 in UTC at %s → %s', (instant, expected) => {
    expect(isWithinSchedule(weekdays, 'UTC', at(instant))).toBe(expected);
  });

  it.each([
    // Asia/Kolkata is UTC+05:30 all year.
    ['2024-01-01T03:29:00Z', false],
    ['2024-01-01T03:30:00Z', true],
    ['2024-01-01T11:29:00Z', true],
    ['2024-01-01T11:30:00Z', false],
    // Friday 20:00 UTC is already Saturday 01:30 in Kolkata.
    ['2024-01-05T20:00:00Z', false],
    // Sunday 23:00 UTC is Monday 04:30 in Kolkata: a weekday, but before nine.
    ['2024-01-07T23:00:00Z', false],
  ])('weekdays 9-5 in Asia/Kolkata at %s → %s', (instant, expected) => {
    expect(isWithinSchedule(weekdays, 'Asia/Kolkata', at(instant))).toBe(expected);
  });

  it('reads the day in the subscriber zone, not in UTC', () => {
    // Monday 2024-01-01 01:00 UTC is Monday 10:00 in Tokyo (open) and Sunday 17:00 in Los Angeles (closed).
    expect(isWithinSchedule(weekdays, 'Asia/Tokyo', at('2024-01-01T01:00:00Z'))).toBe(true);
    expect(isWithinSchedule(weekdays, 'America/Los_Angeles', at('2024-01-01T01:00:00Z'))).toBe(false);
  });

  it('falls back to UTC for a missing or unknown zone', () => {
    expect(resolveTimeZone('Mars/Olympus')).toBe('UTC');
    expect(resolveTimeZone(null)).toBe('UTC');
    expect(resolveTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(isWithinSchedule(weekdays, 'Mars/Olympus', at('2024-01-01T09:30:00Z'))).toBe(true);
    expect(isWithinSchedule(weekdays, '', at('2024-01-01T08:30:00Z'))).toBe(false);
    expect(isWithinSchedule(weekdays, undefined, at('2024-01-01T09:30:00Z'))).toBe(true);
  });

  describe('days', () => {
    const schedule: Schedule = {
      isEnabled: true,
      weeklySchedule: {
        monday: { isEnabled: true },
        tuesday: { isEnabled: false, hours: [{ start: '9:00 AM', end: '5:00 PM' }] },
        wednesday: { isEnabled: true, hours: [] },
        thursday: {
          isEnabled: true,
          hours: [
            { start: '8:00 AM', end: '10:00 AM' },
            { start: '2:00 PM', end: '3:00 PM' },
          ],
        },
      },
    };
    it.each([
      ['2024-01-01T00:00:00Z', true, 'an enabled day without hours is open all day'],
      ['2024-01-01T23:59:00Z', true, 'an enabled day without hours is open all day'],
      ['2024-01-02T10:00:00Z', false, 'a disabled day is closed even inside its hours'],
      ['2024-01-03T10:00:00Z', false, 'an enabled day with an empty list of hours is closed'],
      ['2024-01-04T09:00:00Z', true, 'first of two ranges'],
      ['2024-01-04T12:00:00Z', false, 'between two ranges'],
      ['2024-01-04T14:30:00Z', true, 'second of two ranges'],
      ['2024-01-05T10:00:00Z', false, 'a day missing from the week is closed'],
    ])('%s → %s (%s)', (instant, expected) => {
      expect(isWithinSchedule(schedule, 'UTC', at(instant))).toBe(expected);
    });
  });

  describe('a range crossing midnight', () => {
    const nights: Schedule = {
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '2:00 AM' }] } },
    };
    it.each([
      ['2024-01-01T21:59:00Z', false],
      ['2024-01-01T22:00:00Z', true],
      ['2024-01-01T23:59:00Z', true],
      ['2024-01-02T00:00:00Z', true], // Tuesday, still inside Monday's range
      ['2024-01-02T01:59:00Z', true],
      ['2024-01-02T02:00:00Z', false],
      ['2024-01-02T22:30:00Z', false], // Tuesday has no range of its own
      ['2024-01-01T01:00:00Z', false], // Monday early morning: Sunday has no range
    ])('Monday 10 PM - 2 AM at %s → %s', (instant, expected) => {
      expect(isWithinSchedule(nights, 'UTC', at(instant))).toBe(expected);
    });

    it('treats equal start and end as a full 24 hours from the start', () => {
      const allDay: Schedule = {
        isEnabled: true,
        weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '6:00 AM', end: '6:00 AM' }] } },
      };
      expect(isWithinSchedule(allDay, 'UTC', at('2024-01-01T05:59:00Z'))).toBe(false);
      expect(isWithinSchedule(allDay, 'UTC', at('2024-01-01T06:00:00Z'))).toBe(true);
      expect(isWithinSchedule(allDay, 'UTC', at('2024-01-02T05:59:00Z'))).toBe(true);
      expect(isWithinSchedule(allDay, 'UTC', at('2024-01-02T06:00:00Z'))).toBe(false);
    });

    it('ending exactly at midnight stays within the day', () => {
      const evening: Schedule = {
        isEnabled: true,
        weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '6:00 PM', end: '12:00 AM' }] } },
      };
      expect(isWithinSchedule(evening, 'UTC', at('2024-01-01T23:59:00Z'))).toBe(true);
      expect(isWithinSchedule(evening, 'UTC', at('2024-01-02T00:00:00Z'))).toBe(false);
    });
  });

  it('treats an enabled schedule without a single open hour as no restriction', () => {
    const never: Schedule = {
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: false }, sunday: { isEnabled: true, hours: [] } },
    };
    expect(isWithinSchedule(never, 'UTC', at('2024-01-01T10:00:00Z'))).toBe(true);
    expect(nextOpenSlot(never, 'UTC', at('2024-01-01T10:00:00Z'))).toEqual(at('2024-01-01T10:00:00Z'));
  });
});

describe('nextOpenSlot', () => {
  it.each([
    ['inside → now', '2024-01-01T10:15:30Z', '2024-01-01T10:15:30Z'],
    ['before opening → today at nine', '2024-01-01T06:00:00Z', '2024-01-01T09:00:00Z'],
    ['after closing → tomorrow at nine', '2024-01-01T17:00:00Z', '2024-01-02T09:00:00Z'],
    ['Friday evening → Monday at nine', '2024-01-05T18:00:00Z', '2024-01-08T09:00:00Z'],
    ['Saturday → Monday at nine', '2024-01-06T12:00:00Z', '2024-01-08T09:00:00Z'],
    ['Sunday just before midnight → Monday at nine', '2024-01-07T23:59:59Z', '2024-01-08T09:00:00Z'],
  ])('weekdays 9-5 UTC: %s', (_label, now, expected) => {
    expect(nextOpenSlot(weekdays, 'UTC', at(now)).toISOString()).toBe(at(expected).toISOString());
  });

  it('returns now without a restricting schedule', () => {
    const now = at('2024-01-06T12:00:00Z');
    expect(nextOpenSlot(null, 'UTC', now)).toBe(now);
    expect(nextOpenSlot({ isEnabled: false, weeklySchedule: { monday: nineToFive } }, 'UTC', now)).toBe(now);
  });

  it('computes the slot in the subscriber zone (Asia/Kolkata, UTC+05:30)', () => {
    // Saturday 10:00 UTC → next Monday 09:00 IST = Monday 03:30 UTC.
    expect(nextOpenSlot(weekdays, 'Asia/Kolkata', at('2024-01-06T10:00:00Z')).toISOString()).toBe(
      '2024-01-08T03:30:00.000Z',
    );
    // Monday 02:00 UTC = Monday 07:30 IST → the same day at 03:30 UTC.
    expect(nextOpenSlot(weekdays, 'Asia/Kolkata', at('2024-01-01T02:00:00Z')).toISOString()).toBe(
      '2024-01-01T03:30:00.000Z',
    );
    // Friday 12:00 UTC = Friday 17:30 IST (closed) → Monday 03:30 UTC.
    expect(nextOpenSlot(weekdays, 'Asia/Kolkata', at('2024-01-05T12:00:00Z')).toISOString()).toBe(
      '2024-01-08T03:30:00.000Z',
    );
  });

  it('finds the next range the same day, then the next day with hours', () => {
    const split: Schedule = {
      isEnabled: true,
      weeklySchedule: {
        wednesday: {
          isEnabled: true,
          hours: [
            { start: '2:00 PM', end: '3:00 PM' },
            { start: '8:00 AM', end: '10:00 AM' },
          ],
        },
        friday: { isEnabled: true, hours: [{ start: '7:30 AM', end: '8:00 AM' }] },
      },
    };
    expect(nextOpenSlot(split, 'UTC', at('2024-01-03T07:00:00Z')).toISOString()).toBe('2024-01-03T08:00:00.000Z');
    expect(nextOpenSlot(split, 'UTC', at('2024-01-03T11:00:00Z')).toISOString()).toBe('2024-01-03T14:00:00.000Z');
    expect(nextOpenSlot(split, 'UTC', at('2024-01-03T15:00:00Z')).toISOString()).toBe('2024-01-05T07:30:00.000Z');
    // Friday after its range → next Wednesday morning.
    expect(nextOpenSlot(split, 'UTC', at('2024-01-05T09:00:00Z')).toISOString()).toBe('2024-01-10T08:00:00.000Z');
  });

  it('wraps a full week to the same weekday', () => {
    const mondays: Schedule = { isEnabled: true, weeklySchedule: { monday: nineToFive } };
    expect(nextOpenSlot(mondays, 'UTC', at('2024-01-01T17:30:00Z')).toISOString()).toBe('2024-01-08T09:00:00.000Z');
  });

  it('opens a day without hours at its midnight, in the zone', () => {
    const saturdays: Schedule = { isEnabled: true, weeklySchedule: { saturday: { isEnabled: true } } };
    expect(nextOpenSlot(saturdays, 'UTC', at('2024-01-03T12:00:00Z')).toISOString()).toBe('2024-01-06T00:00:00.000Z');
    // Saturday 00:00 in Tokyo (UTC+9) is Friday 15:00 UTC.
    expect(nextOpenSlot(saturdays, 'Asia/Tokyo', at('2024-01-03T12:00:00Z')).toISOString()).toBe(
      '2024-01-05T15:00:00.000Z',
    );
  });

  it('handles ranges crossing midnight', () => {
    const nights: Schedule = {
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '2:00 AM' }] } },
    };
    // Tuesday 01:00 is still inside Monday's night.
    expect(nextOpenSlot(nights, 'UTC', at('2024-01-02T01:00:00Z')).toISOString()).toBe('2024-01-02T01:00:00.000Z');
    // Tuesday 03:00 → next Monday 22:00.
    expect(nextOpenSlot(nights, 'UTC', at('2024-01-02T03:00:00Z')).toISOString()).toBe('2024-01-08T22:00:00.000Z');
    // Monday noon → that evening.
    expect(nextOpenSlot(nights, 'UTC', at('2024-01-01T12:00:00Z')).toISOString()).toBe('2024-01-01T22:00:00.000Z');
  });

  it('follows daylight saving time (America/New_York, clocks forward on 2024-03-10)', () => {
    // Saturday 2024-03-09 is still EST (UTC-5); Monday 2024-03-11 is EDT (UTC-4).
    expect(nextOpenSlot(weekdays, 'America/New_York', at('2024-03-09T12:00:00Z')).toISOString()).toBe(
      '2024-03-11T13:00:00.000Z',
    );
    expect(isWithinSchedule(weekdays, 'America/New_York', at('2024-03-11T13:00:00Z'))).toBe(true);
    expect(isWithinSchedule(weekdays, 'America/New_York', at('2024-03-08T13:30:00Z'))).toBe(false);
  });
});

describe('zonedToInstant', () => {
  it.each([
    ['UTC', 2024, 1, 1, 540, '2024-01-01T09:00:00.000Z'],
    ['Asia/Kolkata', 2024, 1, 1, 540, '2024-01-01T03:30:00.000Z'],
    ['America/New_York', 2024, 7, 1, 540, '2024-07-01T13:00:00.000Z'],
    // 02:30 does not exist on 2024-03-10 in New York: it lands after the jump, at 03:30 EDT.
    ['America/New_York', 2024, 3, 10, 150, '2024-03-10T07:30:00.000Z'],
    // 01:30 happens twice on 2024-11-03 in New York: the first (EDT) is chosen.
    ['America/New_York', 2024, 11, 3, 90, '2024-11-03T05:30:00.000Z'],
    // 02:30 happens twice on 2024-10-27 in Berlin: the first (CEST) is chosen.
    ['Europe/Berlin', 2024, 10, 27, 150, '2024-10-27T00:30:00.000Z'],
  ])('%s %d-%d-%d minute %d → %s', (zone, year, month, day, minute, expected) => {
    expect(new Date(zonedToInstant(year, month, day, minute, zone)).toISOString()).toBe(expected);
  });
});
