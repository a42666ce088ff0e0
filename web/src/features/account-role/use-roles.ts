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
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { http, request } from '../../api/client';

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
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const done = (result: { message: string }) => {
    void message.success(result.message);
    void queryClient.invalidateQueries({ queryKey: ['roles'] });
  };
  const save = useMutation({
    mutationFn: (input: TRoleAdd | TRoleEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/role/edit', { body: input })
        : request<TRole>('POST', '/sys/role/add', { body: input }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) =>
      request<null>('DELETE', '/sys/role/deleteBatch', { params: { ids: ids.join(',') } }),
    onSuccess: done,
  });
  const savePermissions = useMutation({
    mutationFn: (body: TSaveRolePermission) =>
      request<null>('POST', '/sys/permission/saveRolePermission', { body }),
    onSuccess: (result, body) => {
      void message.success(result.message);
      void queryClient.invalidateQueries({ queryKey: ['rolePermission', body.roleId] });
    },
  });
  const saveDataRules = useMutation({
    mutationFn: (body: TSaveRoleDataRule) => request<null>('POST', '/sys/role/datarule', { body }),
    onSuccess: (result, body) => {
      void message.success(result.message);
      void queryClient.invalidateQueries({
        queryKey: ['roleDataRules', body.roleId, body.permissionId],
      });
    },
  });
  return { save, remove, savePermissions, saveDataRules };
}
