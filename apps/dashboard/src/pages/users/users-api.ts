import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { DashboardUser, Role } from '../../api/types';

const USERS_KEY = ['dashboard-users'] as const;

export function useUsers() {
  return useQuery({
    queryKey: USERS_KEY,
    queryFn: () => api<DashboardUser[]>('GET', '/v1/dashboard/users'),
  });
}

/** A change to the user list: the list is read again once it is saved. */
function useUserChange<Input>(call: (input: Input) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries({ queryKey: USERS_KEY }) });
}

export const useCreateUser = () =>
  useUserChange((input: { email: string; password: string; role: Role }) =>
    api<DashboardUser>('POST', '/v1/dashboard/users', input),
  );

export const useSetRole = () =>
  useUserChange(({ id, role }: { id: string; role: Role }) =>
    api('PATCH', `/v1/dashboard/users/${encodeURIComponent(id)}`, { role }),
  );

export const useRemoveUser = () =>
  useUserChange((id: string) => api('DELETE', `/v1/dashboard/users/${encodeURIComponent(id)}`));
