import type {
  TDeviceToken,
  TDeviceTokenCreate,
  TDeviceTokenEdit,
  TDeviceTokenQuery,
  TDeviceTokenWithKey,
  TRemovedSn,
  TRemovedSnAllow,
  TPage,
  TRemovedSnQuery,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { useEntityMutation } from '../../shared/entity/use-entity-mutation';

const BASE = '/device/token';
const KEY = ['deviceTokens'] as const;

export type TokenParams = Omit<TDeviceTokenQuery, '_t'>;

export function useTokens(params: TokenParams) {
  return useQuery({
    queryKey: [...KEY, params],
    queryFn: () => http.get<TPage<TDeviceToken>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

/** Shows the full key; the server checks token:reveal. */
export const revealTokenKey = (id: string) =>
  http.get<{ tokenKey: string }>(`${BASE}/revealKey`, { id }).then((r) => r.tokenKey);

/** Every change reloads the token list; devices name their token, so they reload too. */
function useTokenMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  return useEntityMutation({ mutationFn: run, invalidates: [KEY, ['devices']] });
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
const REMOVED_KEY = ['deviceTokenRemovedSns'] as const;

/** The SNs deleted from a token, which auto-registration refuses; off while `params` is null. */
export function useRemovedSns(params: RemovedSnParams | null) {
  return useQuery({
    queryKey: [...REMOVED_KEY, params],
    queryFn: () => http.get<TPage<TRemovedSn>>(`${BASE}/removedSns`, params ?? undefined),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}

export function useAllowSns() {
  return useEntityMutation({
    mutationFn: (body: TRemovedSnAllow) => http.post<{ count: number }>(`${BASE}/allowSns`, body),
    invalidates: [REMOVED_KEY],
  });
}
