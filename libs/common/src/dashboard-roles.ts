/** Roles of dashboard users, from least to most allowed: each role may do all that the ones before it may. */
export const DASHBOARD_ROLES = ['viewer', 'editor', 'admin'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

export const isDashboardRole = (value: unknown): value is DashboardRole =>
  DASHBOARD_ROLES.includes(value as DashboardRole);

/** Whether `role` may do what `needed` may. */
export const roleIncludes = (role: DashboardRole, needed: DashboardRole): boolean =>
  DASHBOARD_ROLES.indexOf(role) >= DASHBOARD_ROLES.indexOf(needed);
