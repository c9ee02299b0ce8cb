import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useSession } from '../../session/session';

export const CHANNELS = ['email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface CredentialField {
  name: string;
  label: string;
  secret: boolean;
  required: boolean;
  type: 'string' | 'text' | 'boolean';
}

export interface Provider {
  providerId: string;
  channel: Channel;
  displayName: string;
  credentials: CredentialField[];
}

/** As a dashboard session reads it: `credentials` holds the non-secret fields only. */
export interface Integration {
  _id: string;
  name: string;
  identifier: string;
  providerId: string;
  channel: Channel;
  credentials: Record<string, unknown>;
  active: boolean;
  primary: boolean;
  priority: number;
  conditions: unknown[];
  createdAt: string;
  updatedAt: string;
}

export interface IntegrationInput {
  name: string;
  identifier?: string;
  active: boolean;
  credentials?: Record<string, unknown>;
  conditions: unknown[];
}

const integrationsKey = (environmentId: string) => ['integrations', environmentId] as const;
const integrationPath = (id: string) => `/v1/integrations/${encodeURIComponent(id)}`;

export function useProviders() {
  return useQuery({
    queryKey: ['integration-providers'],
    queryFn: () => api<Provider[]>('GET', '/v1/integrations/providers'),
    staleTime: Infinity,
  });
}

export function useIntegrations() {
  const { environment } = useSession();
  return useQuery({
    queryKey: integrationsKey(environment.id),
    queryFn: () => api<Integration[]>('GET', '/v1/integrations'),
  });
}

/** Any change to an integration may change others (the primary of a channel): the list is read again. */
function useIntegrationChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const { environment } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: integrationsKey(environment.id) }),
  });
}

export const useCreateIntegration = () =>
  useIntegrationChange((input: IntegrationInput & { providerId: string; channel: Channel }) =>
    api<Integration>('POST', '/v1/integrations', input),
  );

/** The API merges a session's credentials into the stored ones, so secrets left out stay as they are. */
export const useUpdateIntegration = (id: string) =>
  useIntegrationChange((input: IntegrationInput) => api<Integration>('PUT', integrationPath(id), input));

export const useSetPrimary = (id: string) =>
  useIntegrationChange(() => api<Integration>('POST', `${integrationPath(id)}/set-primary`));

export const useDeleteIntegration = (id: string) =>
  useIntegrationChange(() => api<Integration[]>('DELETE', integrationPath(id)));
