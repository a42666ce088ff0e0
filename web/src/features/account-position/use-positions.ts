import type {
  TDictItem,
  TPosition,
  TPositionAdd,
  TPositionEdit,
  TPositionQuery,
} from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { http, request } from '../../api/client';

export type PositionParams = Omit<TPositionQuery, '_t'>;
type Page = { records: TPosition[]; total: number };

export function usePositions(params: PositionParams) {
  return useQuery({
    queryKey: ['positions', params],
    queryFn: () => http.get<Page>('/sys/position/list', params),
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
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const done = (result: { message: string }) => {
    void message.success(result.message);
    void queryClient.invalidateQueries({ queryKey: ['positions'] });
  };
  const save = useMutation({
    mutationFn: (input: TPositionAdd | TPositionEdit) =>
      'id' in input
        ? request<TPosition>('PUT', '/sys/position/edit', { body: input })
        : request<TPosition>('POST', '/sys/position/add', { body: input }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) =>
      request<null>('DELETE', '/sys/position/deleteBatch', { params: { ids: ids.join(',') } }),
    onSuccess: done,
  });
  return { save, remove };
}
