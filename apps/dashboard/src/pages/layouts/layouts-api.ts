import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useSession } from '../../session/session';

export interface Layout {
  _id: string;
  layoutId: string;
  name: string;
  isDefault: boolean;
  updatedAt: string;
  controls: { values: { email?: { body: string; editorType: 'html' | 'block' } } };
}

export interface LayoutChanges {
  name: string;
  body: string;
  /** Sent only to make it the default: the API refuses to unset the default (another layout takes it). */
  makeDefault: boolean;
}

const layoutsKey = (environmentId: string) => ['layouts', environmentId] as const;
const layoutPath = (layoutId: string) => `/v2/layouts/${encodeURIComponent(layoutId)}`;

export function useLayouts() {
  const { environment } = useSession();
  return useQuery({
    queryKey: layoutsKey(environment.id),
    queryFn: () =>
      api<{ layouts: Layout[]; totalCount: number }>('GET', '/v2/layouts?limit=100&orderBy=name&orderDirection=ASC'),
  });
}

export function useLayout(layoutId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: [...layoutsKey(environment.id), layoutId],
    queryFn: () => api<Layout>('GET', layoutPath(layoutId)),
  });
}

function useLayoutChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const { environment } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: layoutsKey(environment.id) }),
  });
}

export const useCreateLayout = () =>
  useLayoutChange((input: { name: string; layoutId: string; isDefault: boolean }) =>
    api<Layout>('POST', '/v2/layouts', input),
  );

export const useUpdateLayout = (layoutId: string) =>
  useLayoutChange(({ name, body, makeDefault }: LayoutChanges) =>
    api<Layout>('PUT', layoutPath(layoutId), {
      name,
      controlValues: { email: { body, editorType: 'html' } },
      ...(makeDefault ? { isDefault: true } : {}),
    }),
  );

export const useDeleteLayout = (layoutId: string) => useLayoutChange(() => api('DELETE', layoutPath(layoutId)));

/** The layout as the API renders it around sample content, with the HTML being edited. */
export async function previewLayout(layoutId: string, body: string): Promise<string> {
  const answer = await api<{ result: { preview: { body: string } } }>('POST', `${layoutPath(layoutId)}/preview`, {
    controlValues: { email: { body, editorType: 'html' } },
  });
  return answer.result.preview.body;
}
