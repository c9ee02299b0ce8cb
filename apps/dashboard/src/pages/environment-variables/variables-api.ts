import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface Variable {
  _id: string;
  key: string;
  isSecret: boolean;
  /** A secret's values read as a mask: the API never decrypts them for an answer. */
  values: { _environmentId: string; value: string }[];
  updatedAt: string;
}

export type VariableValues = { _environmentId: string; value: string }[];

/** Variables belong to the organization (a value per environment), so the list is not per environment. */
const VARIABLES_KEY = ['environment-variables'] as const;
const variablePath = (key: string) => `/v1/environment-variables/${encodeURIComponent(key)}`;

export function useVariables() {
  return useQuery({ queryKey: VARIABLES_KEY, queryFn: () => api<Variable[]>('GET', '/v1/environment-variables') });
}

export function useVariable(key: string) {
  return useQuery({ queryKey: [...VARIABLES_KEY, key], queryFn: () => api<Variable>('GET', variablePath(key)) });
}

function useVariableChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries({ queryKey: VARIABLES_KEY }) });
}

export const useCreateVariable = () =>
  useVariableChange((input: { key: string; isSecret: boolean; values: VariableValues }) =>
    api<Variable>('POST', '/v1/environment-variables', input),
  );

/** `values` replaces the value of each environment it lists (an empty value removes it) and keeps the others. */
export const useUpdateVariable = (key: string) =>
  useVariableChange((input: { isSecret: boolean; values: VariableValues }) =>
    api<Variable>('PATCH', variablePath(key), input),
  );

export const useDeleteVariable = (key: string) => useVariableChange(() => api('DELETE', variablePath(key)));
