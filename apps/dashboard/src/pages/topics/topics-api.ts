import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useSession } from '../../session/session';

export interface Topic {
  _id: string;
  key: string;
  name?: string;
  createdAt: string;
}

export interface TopicSubscription {
  _id: string;
  createdAt: string;
  subscriber: { subscriberId: string; firstName: string | null; lastName: string | null; email: string | null };
}

const topicsKey = (environmentId: string) => ['topics', environmentId] as const;

export function useTopics() {
  const { environment } = useSession();
  return useQuery({
    queryKey: topicsKey(environment.id),
    queryFn: () => api<{ data: Topic[] }>('GET', '/v2/topics?limit=100'),
  });
}

export function useTopicSubscriptions(key: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: [...topicsKey(environment.id), key, 'subscriptions'],
    queryFn: () =>
      api<{ data: TopicSubscription[] }>('GET', `/v2/topics/${encodeURIComponent(key)}/subscriptions?limit=100`),
  });
}

export function useCreateTopic() {
  const { environment } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { key: string; name: string }) => api<Topic>('POST', '/v2/topics', input),
    onSuccess: () => client.invalidateQueries({ queryKey: topicsKey(environment.id) }),
  });
}
