import { useQuery } from '@tanstack/react-query';
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
  data?: Record<string, unknown> | null;
  channels?: { providerId: string; credentials?: { deviceTokens?: string[]; webhookUrl?: string } }[];
}

interface Preferences {
  global: { enabled: boolean; channels: Record<string, boolean> };
  workflows: { enabled: boolean; channels: Record<string, boolean>; workflow: { name: string; identifier: string } }[];
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

const subscriberPath = (subscriberId: string) => `/v2/subscribers/${encodeURIComponent(subscriberId)}`;

export const useSubscriberSearch = (search: string, after: string | undefined) =>
  useEnvironmentGet<{ data: Subscriber[]; next: string | null }>(
    `/v2/subscribers${queryString({ subscriberId: search, limit: 20, after })}`,
  );

export const useSubscriber = (subscriberId: string) => useEnvironmentGet<Subscriber>(subscriberPath(subscriberId));

export const usePreferences = (subscriberId: string) =>
  useEnvironmentGet<Preferences>(`${subscriberPath(subscriberId)}/preferences`);

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
