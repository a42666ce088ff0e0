import type { TApiKey, TApiKeyCreate, TApiKeyCreated } from '@blrms/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/client';

const KEY = ['apiKeys'] as const;

export const apiKeyApi = {
  listOwn: () => http.get<TApiKey[]>('/sys/apiKey/list'),
  listAll: () => http.get<TApiKey[]>('/sys/apiKey/listAll'),
  create: (body: TApiKeyCreate) => http.post<TApiKeyCreated>('/sys/apiKey/add', body),
  revokeOwn: (id: string) => http.delete<null>('/sys/apiKey/revoke', { id }),
  revokeAny: (id: string) => http.delete<null>('/sys/apiKey/adminRevoke', { id }),
};

/** The caller's keys, or every key of the company (`all`, administrators). */
export function useApiKeys(scope: 'own' | 'all', enabled = true) {
  return useQuery({
    queryKey: [...KEY, scope],
    queryFn: scope === 'own' ? apiKeyApi.listOwn : apiKeyApi.listAll,
    enabled,
  });
}

export function useReloadApiKeys() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: KEY });
}
