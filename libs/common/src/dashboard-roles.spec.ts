import { describe, expect, it } from '@jest/globals';
import { DASHBOARD_ROLES, isDashboardRole, roleIncludes } from './dashboard-roles.js';

describe('dashboard roles', () => {
  it('each role includes the ones below it and none above', () => {
    expect(DASHBOARD_ROLES.map((role) => DASHBOARD_ROLES.filter((needed) => roleIncludes(role, needed)))).toEqual([
      ['viewer'],
      ['viewer', 'editor'],
      ['viewer', 'editor', 'admin'],
    ]);
  });

  it.each([
    ['admin', true],
    ['viewer', true],
    ['owner', false],
    ['Admin', false],
    [undefined, false],
  ])('knows %j as a role: %s', (value, known) => {
    expect(isDashboardRole(value)).toBe(known);
  });
});
