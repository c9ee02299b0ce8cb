import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryString } from '../../api/client';
import { useSession } from '../../session/session';

export interface Subscriber {
  _id: string;
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  locale?: string | null;
  timezone?: string | null;
  avatar?: string | null;
  data?: Record<string, unknown> | null;
  channels?: ChannelEntry[];
}

/** One provider entry of the subscriber's channel credentials (chat and push providers). */
export interface ChannelEntry {
  providerId: string;
  integrationIdentifier?: string;
  /** Answered by the API, never sent: the integration the entry is bound to. */
  _integrationId?: string;
  credentials?: { deviceTokens?: string[]; webhookUrl?: string } & Record<string, unknown>;
}

/** What PATCH /v2/subscribers/{id} takes: undefined keeps a field, null clears it. */
export type ProfileInput = Partial<
  Record<'firstName' | 'lastName' | 'email' | 'phone' | 'locale' | 'timezone' | 'avatar', string | null>
> & { data?: Record<string, unknown> | null };

/** The global preference's quiet hours as the API stores them; days left out of an enabled schedule are closed. */
export interface Schedule {
  isEnabled: boolean;
  weeklySchedule?: Record<string, { isEnabled: boolean; hours?: { start: string; end: string }[] }>;
}

export interface Preferences {
  global: { enabled: boolean; channels: Record<string, boolean>; schedule?: Schedule };
  workflows: { enabled: boolean; channels: Record<string, boolean>; workflow: { name: string; identifier: string } }[];
}

/** PATCH …/preferences: the global preference, or one workflow's with workflowId. */
interface PreferencesInput {
  workflowId?: string;
  channels?: Record<string, boolean>;
  schedule?: Schedule | null;
}

interface TopicSubscription {
  _id: string;
  topic: { key: string; name?: string | null };
}

/** One GET of the picked environment, cached under its path. */
function useEnvironmentGet<T>(path: string, enabled = true) {
  const { environment } = useSession();
  return useQuery({
    queryKey: ['get', environment.id, path],
    queryFn: () => api<T>('GET', path),
    enabled,
  });
}

/** A write that reads its resource again (the cached GET of the same path) once it succeeds. */
function useEnvironmentWrite<Input, Output>(readAgain: string, call: (input: Input) => Promise<Output>) {
  const { environment } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: ['get', environment.id, readAgain] }),
  });
}

const subscriberPath = (subscriberId: string) => `/v2/subscribers/${encodeURIComponent(subscriberId)}`;

export const useSubscriberSearch = (search: string, after: string | undefined) =>
  useEnvironmentGet<{ data: Subscriber[]; next: string | null }>(
    `/v2/subscribers${queryString({ subscriberId: search, limit: 20, after })}`,
  );

export const useSubscriber = (subscriberId: string) => useEnvironmentGet<Subscriber>(subscriberPath(subscriberId));

export const usePreferences = (subscriberId: string) =>
  useEnvironmentGet<Preferences>(`${subscriberPath(subscriberId)}/preferences`);

export const useUpdateProfile = (subscriberId: string) =>
  useEnvironmentWrite(subscriberPath(subscriberId), (input: ProfileInput) =>
    api<Subscriber>('PATCH', subscriberPath(subscriberId), input),
  );

export const useUpdatePreferences = (subscriberId: string) =>
  useEnvironmentWrite(`${subscriberPath(subscriberId)}/preferences`, (input: PreferencesInput) =>
    api<Preferences>('PATCH', `${subscriberPath(subscriberId)}/preferences`, input),
  );

const credentialsPath = (subscriberId: string) => `/v1/subscribers/${encodeURIComponent(subscriberId)}/credentials`;

/**
 * PUT makes the entry's credentials exactly the ones sent (how a webhook URL or the last device token is
 * taken out); PATCH merges them key by key, a deviceTokens list replacing the stored one.
 */
export const useSetCredentials = (subscriberId: string) =>
  useEnvironmentWrite(subscriberPath(subscriberId), (input: { replace: boolean; entry: ChannelEntry }) =>
    api<Subscriber>(input.replace ? 'PUT' : 'PATCH', credentialsPath(subscriberId), input.entry),
  );

/** Removes every entry of the provider. */
export const useDeleteCredentials = (subscriberId: string) =>
  useEnvironmentWrite(subscriberPath(subscriberId), (providerId: string) =>
    api<void>('DELETE', `${credentialsPath(subscriberId)}/${encodeURIComponent(providerId)}`),
  );

export const useTopics = (subscriberId: string) =>
  useEnvironmentGet<{ data: TopicSubscription[] }>(`${subscriberPath(subscriberId)}/subscriptions?limit=50`);

/**
 * The subscriberHash the server signs for the Inbox preview (editors and admins: it opens the subscriber's
 * inbox); none for a viewer, whose preview then works only where the environment does not require HMAC.
 */
export function useInboxPreviewHash(subscriberId: string, allowed: boolean) {
  const { environment } = useSession();
  return useQuery({
    queryKey: ['inbox-preview', environment.id, subscriberId],
    queryFn: () =>
      api<{ subscriberHash: string }>('POST', `/v1/dashboard/inbox-preview/${encodeURIComponent(subscriberId)}`),
    enabled: allowed,
    staleTime: Infinity,
  });
}

/** The environment's public identifier, which the Inbox starts its session with. */
export const useApplicationIdentifier = () => useEnvironmentGet<{ identifier: string }>('/v1/environments/me');
