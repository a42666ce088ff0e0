import type {
  TDeviceToken,
  TDeviceTokenCreate,
  TDeviceTokenEdit,
  TDeviceTokenQuery,
  TDeviceTokenWithKey,
  TRemovedSn,
  TRemovedSnAllow,
  TRemovedSnQuery,
} from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/client';

const BASE = '/device/token';
const KEY = ['deviceTokens'] as const;

export type TokenParams = Omit<TDeviceTokenQuery, '_t'>;
export type TokenPage = { records: TDeviceToken[]; total: number };

export function useTokens(params: TokenParams) {
  return useQuery({
    queryKey: [...KEY, params],
    queryFn: () => http.get<TokenPage>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

/** Shows the full key; the server checks token:reveal. */
export const revealTokenKey = (id: string) =>
  http.get<{ tokenKey: string }>(`${BASE}/revealKey`, { id }).then((r) => r.tokenKey);

/** Every change reloads the token list; devices name their token, so they reload too. */
function useTokenMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: KEY });
      await client.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}

export function useCreateToken() {
  return useTokenMutation((body: TDeviceTokenCreate) =>
    http.post<TDeviceTokenWithKey>(`${BASE}/add`, body),
  );
}

export function useEditToken() {
  return useTokenMutation((body: TDeviceTokenEdit) => http.put<TDeviceToken>(`${BASE}/edit`, body));
}

export function useRegenerateToken() {
  return useTokenMutation((id: string) =>
    http.put<{ tokenKey: string }>(`${BASE}/regenerate`, { id }).then((r) => r.tokenKey),
  );
}

export function useDeleteToken() {
  return useTokenMutation((id: string) => http.delete<null>(`${BASE}/delete`, { id }));
}

export type RemovedSnParams = Omit<TRemovedSnQuery, '_t'>;
export type RemovedSnPage = { records: TRemovedSn[]; total: number };
const REMOVED_KEY = ['deviceTokenRemovedSns'] as const;

/** The SNs deleted from a token, which auto-registration refuses; off while `params` is null. */
export function useRemovedSns(params: RemovedSnParams | null) {
  return useQuery({
    queryKey: [...REMOVED_KEY, params],
    queryFn: () => http.get<RemovedSnPage>(`${BASE}/removedSns`, params ?? undefined),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}

export function useAllowSns() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TRemovedSnAllow) => http.post<{ count: number }>(`${BASE}/allowSns`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: REMOVED_KEY }),
  });
}
