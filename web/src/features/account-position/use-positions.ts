import type {
  TDictItem,
  TPage,
  TPosition,
  TPositionAdd,
  TPositionEdit,
  TPositionQuery,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

export type PositionParams = Omit<TPositionQuery, '_t'>;

export function usePositions(params: PositionParams) {
  return useQuery({
    queryKey: ['positions', params],
    queryFn: () => http.get<TPage<TPosition>>('/sys/position/list', params),
    placeholderData: keepPreviousData,
  });
}

export function usePositionRanks() {
  return useQuery({
    queryKey: ['dict', 'position_rank'],
    queryFn: () => http.get<TDictItem[]>('/sys/dict/getDictItems/position_rank'),
    staleTime: 60_000,
  });
}

/** Saves (add or edit) or deletes, shows the server's message and refreshes the list. */
export function usePositionMutations() {
  const done = { invalidates: [['positions']], successMessage: serverMessage };
  const save = useEntityMutation({
    mutationFn: (input: TPositionAdd | TPositionEdit) =>
      'id' in input
        ? request<TPosition>('PUT', '/sys/position/edit', { body: input })
        : request<TPosition>('POST', '/sys/position/add', { body: input }),
    ...done,
  });
  const remove = useEntityMutation({
    mutationFn: (ids: string[]) =>
      request<null>('DELETE', '/sys/position/deleteBatch', { params: { ids: ids.join(',') } }),
    ...done,
  });
  return { save, remove };
}
