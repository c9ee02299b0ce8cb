import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface ApiKey {
  _id: string;
  prefix: string;
  createdAt: string;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

const keysPath = (environmentId: string) => `/v1/environments/${encodeURIComponent(environmentId)}/api-keys`;
const keysKey = (environmentId: string) => ['api-keys', environmentId] as const;

export function useApiKeys(environmentId: string) {
  return useQuery({ queryKey: keysKey(environmentId), queryFn: () => api<ApiKey[]>('GET', keysPath(environmentId)) });
}

/** A change to the environment's keys; the list is read again. */
function useKeyChange<Input, Output>(environmentId: string, call: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: keysKey(environmentId) }),
  });
}

export const useCreateApiKey = (environmentId: string) =>
  useKeyChange(environmentId, () => api<CreatedApiKey>('POST', keysPath(environmentId)));

export const useRevokeApiKey = (environmentId: string) =>
  useKeyChange(environmentId, (keyId: string) =>
    api('DELETE', `${keysPath(environmentId)}/${encodeURIComponent(keyId)}`),
  );
