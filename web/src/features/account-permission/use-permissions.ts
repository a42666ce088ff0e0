import type {
  TPermissionAdd,
  TPermissionDataRule,
  TPermissionEdit,
  TPermissionNode,
  TPermissionRuleAdd,
  TPermissionRuleEdit,
} from '@blrms/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { http, request } from '../../api/client';

export function usePermissionTree() {
  return useQuery({
    queryKey: ['permissionTree'],
    queryFn: () => http.get<TPermissionNode[]>('/sys/permission/list'),
  });
}

export function usePermissionRules(permissionId: string | null) {
  return useQuery({
    queryKey: ['permissionRules', permissionId],
    queryFn: () =>
      http.get<TPermissionDataRule[]>('/sys/permission/getPermRuleListByPermId', { permissionId }),
    enabled: permissionId !== null,
  });
}

/** Catalogue changes reload the tree; the caller's own menu follows through the version header. */
export function usePermissionMutations() {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const done = (result: { message: string }) => {
    void message.success(result.message);
    void queryClient.invalidateQueries({ queryKey: ['permissionTree'] });
    void queryClient.invalidateQueries({ queryKey: ['permissionRules'] });
  };
  const save = useMutation({
    mutationFn: (input: TPermissionAdd | TPermissionEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/permission/edit', { body: input })
        : request<{ id: string }>('POST', '/sys/permission/add', { body: input }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      request<null>('DELETE', '/sys/permission/delete', { params: { id } }),
    onSuccess: done,
  });
  const saveRule = useMutation({
    mutationFn: (input: TPermissionRuleAdd | TPermissionRuleEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/permission/editPermissionRule', { body: input })
        : request<TPermissionDataRule>('POST', '/sys/permission/addPermissionRule', {
            body: input,
          }),
    onSuccess: done,
  });
  const removeRule = useMutation({
    mutationFn: (id: string) =>
      request<null>('DELETE', '/sys/permission/deletePermissionRule', { params: { id } }),
    onSuccess: done,
  });
  return { save, remove, saveRule, removeRule };
}
