import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { SESSION_KEY } from '../../session/session-request';

export interface Environment {
  _id: string;
  name: string;
  identifier: string;
  requireHmac: boolean;
  retention: {
    activityDays: number;
    messagesDays: number;
    activityDaysOverride: number | null;
    messagesDaysOverride: number | null;
  };
  apiKeys?: { key: string }[];
}

const ENVIRONMENTS_KEY = ['environments'] as const;

export function useEnvironments() {
  return useQuery({ queryKey: ENVIRONMENTS_KEY, queryFn: () => api<Environment[]>('GET', '/v1/environments') });
}

/**
 * A change to the organization's environments: the list is read again, and so is the session, whose list feeds
 * the environment picker.
 */
function useEnvironmentChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ENVIRONMENTS_KEY });
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

export const useCreateEnvironment = () =>
  useEnvironmentChange((input: { name: string; color: string }) => api<Environment>('POST', '/v1/environments', input));

export const useUpdateRetention = () =>
  useEnvironmentChange(
    ({ id, ...retention }: { id: string; activityDays: number | null; messagesDays: number | null }) =>
      api<Environment>('PUT', `/v1/environments/${encodeURIComponent(id)}`, { retention }),
  );

export const useUpdateHmac = () =>
  useEnvironmentChange(({ id, requireHmac }: { id: string; requireHmac: boolean }) =>
    api<Environment>('PUT', `/v1/environments/${encodeURIComponent(id)}`, { requireHmac }),
  );

export const useDeleteEnvironment = () =>
  useEnvironmentChange((id: string) => api('DELETE', `/v1/environments/${encodeURIComponent(id)}`));
