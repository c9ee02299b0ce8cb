import { SetMetadata } from '@nestjs/common';
import type { DashboardRole } from '#common';

/**
 * What a route's area lets a dashboard user do: the role that reads (GET, HEAD) and the role that
 * writes (every other method). `environmentScoped` routes act on one environment: an API key's, or
 * the one a dashboard session names in X-Environment-Id; the others are the dashboard's own and take
 * no API key.
 */
interface AccessArea {
  read: DashboardRole;
  write: DashboardRole;
  environmentScoped: boolean;
}

export const ACCESS_AREAS = {
  /** Workflows, layouts, integrations, topics, subscribers, contexts, variables, tenants, triggers, activity. */
  content: { read: 'viewer', write: 'editor', environmentScoped: true },
  /** Environments (each created with an API key) and webhook endpoints (signing secrets). */
  administration: { read: 'viewer', write: 'admin', environmentScoped: true },
  /** An environment's API keys: listing them is an admin's too (a session never reads a key, only its prefix). */
  apiKeys: { read: 'admin', write: 'admin', environmentScoped: true },
  /** Dashboard users. */
  userManagement: { read: 'admin', write: 'admin', environmentScoped: false },
  /** The caller's own session, sessions and password. */
  ownSession: { read: 'viewer', write: 'viewer', environmentScoped: false },
} satisfies Record<string, AccessArea>;

export type AccessAreaName = keyof typeof ACCESS_AREAS;

export const ACCESS_AREA = 'accessArea';
/**
 * The area of a controller (or of one route, which then overrides its controller's). Every route is
 * either @Public() or in an area: the guard refuses one that is neither, and
 * test/dashboard-access.e2e.ts walks every registered route.
 */
export const Access = (area: AccessAreaName) => SetMetadata(ACCESS_AREA, area);

const READ_METHODS = new Set(['GET', 'HEAD']);

export const isWrite = (method: string): boolean => !READ_METHODS.has(method);

/** The role a dashboard user needs for `method` in `area`. */
export function roleNeeded(area: AccessAreaName, method: string): DashboardRole {
  return isWrite(method) ? ACCESS_AREAS[area].write : ACCESS_AREAS[area].read;
}
