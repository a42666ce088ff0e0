import type {
  TDeviceGroup,
  TDeviceGroupCreate,
  TDeviceGroupEdit,
  TDeviceGroupQuery,
  TPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { useEntityMutation } from '../../shared/entity/use-entity-mutation';

const BASE = '/device/group';
/** Group lists and the group options of the device pages share this prefix. */
const KEY = ['deviceGroups'] as const;

export type GroupParams = Omit<TDeviceGroupQuery, '_t'>;

export function useGroups(params: GroupParams) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () => http.get<TPage<TDeviceGroup>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

/** Every change reloads the groups; devices show their group's name, so they reload too. */
function useGroupMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  return useEntityMutation({ mutationFn: run, invalidates: [KEY, ['devices']] });
}

export function useCreateGroup() {
  return useGroupMutation((body: TDeviceGroupCreate) =>
    http.post<TDeviceGroup>(`${BASE}/add`, body),
  );
}

export function useEditGroup() {
  return useGroupMutation((body: TDeviceGroupEdit) => http.put<TDeviceGroup>(`${BASE}/edit`, body));
}

export function useDeleteGroups() {
  return useGroupMutation((ids: string[]) =>
    ids.length === 1
      ? http.delete<null>(`${BASE}/delete`, { id: ids[0] })
      : http.delete<null>(`${BASE}/deleteBatch`, { ids: ids.join(',') }),
  );
}
