import type {
  TPermissionAdd,
  TPermissionDataRule,
  TPermissionEdit,
  TPermissionNode,
  TPermissionRuleAdd,
  TPermissionRuleEdit,
} from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

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
  const done = {
    invalidates: [['permissionTree'], ['permissionRules']],
    successMessage: serverMessage,
  };
  const save = useEntityMutation({
    mutationFn: (input: TPermissionAdd | TPermissionEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/permission/edit', { body: input })
        : request<{ id: string }>('POST', '/sys/permission/add', { body: input }),
    ...done,
  });
  const remove = useEntityMutation({
    mutationFn: (id: string) =>
      request<null>('DELETE', '/sys/permission/delete', { params: { id } }),
    ...done,
  });
  const saveRule = useEntityMutation({
    mutationFn: (input: TPermissionRuleAdd | TPermissionRuleEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/permission/editPermissionRule', { body: input })
        : request<TPermissionDataRule>('POST', '/sys/permission/addPermissionRule', {
            body: input,
          }),
    ...done,
  });
  const removeRule = useEntityMutation({
    mutationFn: (id: string) =>
      request<null>('DELETE', '/sys/permission/deletePermissionRule', { params: { id } }),
    ...done,
  });
  return { save, remove, saveRule, removeRule };
}
