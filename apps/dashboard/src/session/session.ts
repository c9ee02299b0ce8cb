import { createContext, useContext } from 'react';
import type { DashboardEnvironment, DashboardUser, Role } from '../api/types';

export interface Session {
  user: DashboardUser;
  environments: DashboardEnvironment[];
  environment: DashboardEnvironment;
  chooseEnvironment: (id: string) => void;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in user and the picked environment; only pages inside the signed-in shell call it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in shell');
  return session;
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/**
 * Whether the user's role covers a level. The server enforces the same on every route; the UI only hides
 * controls that would be refused.
 */
export function useRoleAtLeast(needed: Role): boolean {
  return RANK[useSession().user.role] >= RANK[needed];
}
