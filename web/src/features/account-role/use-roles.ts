import type {
  TPermissionTree,
  TRole,
  TRoleAdd,
  TRoleDataRules,
  TRoleEdit,
  TRolePage,
  TRoleQuery,
  TSaveRoleDataRule,
  TSaveRolePermission,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

export type RoleParams = Omit<TRoleQuery, '_t'>;

export function useRoles(params: RoleParams) {
  return useQuery({
    queryKey: ['roles', params],
    queryFn: () => http.get<TRolePage>('/sys/role/list', params),
    placeholderData: keepPreviousData,
  });
}

/** The permissions the caller may grant, as a tree. */
export function useGrantableTree(enabled: boolean) {
  return useQuery({
    queryKey: ['grantableTree'],
    queryFn: () => http.get<TPermissionTree>('/sys/permission/queryTreeList'),
    enabled,
  });
}

export function useRolePermissionIds(roleId: string | null) {
  return useQuery({
    queryKey: ['rolePermission', roleId],
    queryFn: () => http.get<string[]>('/sys/permission/queryRolePermission', { roleId }),
    enabled: roleId !== null,
  });
}

export function useRoleDataRules(roleId: string, permissionId: string | null) {
  return useQuery({
    queryKey: ['roleDataRules', roleId, permissionId],
    queryFn: () =>
      http.get<TRoleDataRules>('/sys/permission/queryPermissionRule', { roleId, permissionId }),
    enabled: permissionId !== null,
  });
}

export function useRoleMutations() {
  const done = { invalidates: [['roles']], successMessage: serverMessage };
  const save = useEntityMutation({
    mutationFn: (input: TRoleAdd | TRoleEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/role/edit', { body: input })
        : request<TRole>('POST', '/sys/role/add', { body: input }),
    ...done,
  });
  const remove = useEntityMutation({
    mutationFn: (ids: string[]) =>
      request<null>('DELETE', '/sys/role/deleteBatch', { params: { ids: ids.join(',') } }),
    ...done,
  });
  const savePermissions = useEntityMutation({
    mutationFn: (body: TSaveRolePermission) =>
      request<null>('POST', '/sys/permission/saveRolePermission', { body }),
    invalidates: (body) => [['rolePermission', body.roleId]],
    successMessage: serverMessage,
  });
  const saveDataRules = useEntityMutation({
    mutationFn: (body: TSaveRoleDataRule) => request<null>('POST', '/sys/role/datarule', { body }),
    invalidates: (body) => [['roleDataRules', body.roleId, body.permissionId]],
    successMessage: serverMessage,
  });
  return { save, remove, savePermissions, saveDataRules };
}
