import type { DashboardEnvironment } from '../api/types';

const STORAGE_KEY = 'dashboard.environment';

/** The environment picked last in this browser, else Development, else the first. */
export function initialEnvironment(environments: DashboardEnvironment[]): DashboardEnvironment | undefined {
  const stored = localStorage.getItem(STORAGE_KEY);
  return (
    environments.find((environment) => environment.id === stored) ??
    environments.find((environment) => environment.name === 'Development') ??
    environments[0]
  );
}

export function rememberEnvironment(id: string): void {
  localStorage.setItem(STORAGE_KEY, id);
}
