import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useSession } from '../../session/session';
import { parsedJsonObject } from '../../ui/json-object';

export interface Context {
  type: string;
  id: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** The dashboard's address of a context. */
export const contextLink = (type: string, id: string) =>
  `/contexts/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

const contextsKey = (environmentId: string) => ['contexts', environmentId] as const;
const contextPath = (type: string, id: string) => `/v2/contexts/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

export function useContexts() {
  const { environment } = useSession();
  return useQuery({
    queryKey: contextsKey(environment.id),
    queryFn: () => api<{ data: Context[]; totalCount: number }>('GET', '/v2/contexts?limit=100'),
  });
}

export function useStoredContext(type: string, id: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: [...contextsKey(environment.id), type, id],
    queryFn: () => api<Context>('GET', contextPath(type, id)),
  });
}

function useContextChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const { environment } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: contextsKey(environment.id) }),
  });
}

export const useCreateContext = () =>
  useContextChange((input: { type: string; id: string; data: string }) =>
    api<Context>('POST', '/v2/contexts', {
      type: input.type,
      id: input.id,
      data: parsedJsonObject(input.data, 'data'),
    }),
  );

/** `data` replaces the stored data (the API does not merge). */
export const useUpdateContext = (type: string, id: string) =>
  useContextChange((input: { data: string }) =>
    api<Context>('PATCH', contextPath(type, id), { data: parsedJsonObject(input.data, 'data') }),
  );

export const useDeleteContext = (type: string, id: string) =>
  useContextChange(() => api('DELETE', contextPath(type, id)));
