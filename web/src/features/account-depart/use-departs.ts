import type {
  TDepartAdd,
  TDepartEdit,
  TDepartMember,
  TDepartMemberQuery,
  TDepartRole,
  TDepartRoleAdd,
  TDepartRoleEdit,
  TDepartTreeNode,
  TGrantTree,
  TPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

export type MemberParams = Omit<TDepartMemberQuery, '_t' | 'depId'>;

export function useDepartTree() {
  return useQuery({
    queryKey: ['departTree'],
    queryFn: () => http.get<TDepartTreeNode[]>('/sys/sysDepart/queryTreeList'),
  });
}

export function useDepartMembers(depId: string, params: MemberParams) {
  return useQuery({
    queryKey: ['departMembers', depId, params],
    queryFn: () =>
      http.get<TPage<TDepartMember>>('/sys/sysDepart/departUserList', { depId, ...params }),
    placeholderData: keepPreviousData,
  });
}

export function useMemberCandidates(depId: string, keyWord: string, enabled: boolean) {
  return useQuery({
    queryKey: ['departCandidates', depId, keyWord],
    queryFn: () => http.get<TDepartMember[]>('/sys/sysDepart/memberCandidates', { depId, keyWord }),
    enabled,
  });
}

export function useGrantableTree(departId: string) {
  return useQuery({
    queryKey: ['departGrantable', departId],
    queryFn: () =>
      http.get<TGrantTree>('/sys/sysDepartPermission/queryTreeListForDepart', { departId }),
  });
}

export function useDepartPermissionIds(departId: string) {
  return useQuery({
    queryKey: ['departPermission', departId],
    queryFn: () => http.get<string[]>('/sys/permission/queryDepartPermission', { departId }),
  });
}

export function useCeilingTree(departId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['departCeiling', departId],
    queryFn: () =>
      http.get<TGrantTree>('/sys/sysDepartPermission/queryTreeListForDeptRole', { departId }),
    enabled,
  });
}

export function useDepartRoles(deptId: string, pageNo: number, pageSize: number) {
  return useQuery({
    queryKey: ['departRoles', deptId, pageNo, pageSize],
    queryFn: () =>
      http.get<TPage<TDepartRole>>('/sys/sysDepartRole/list', {
        deptId,
        pageNo,
        pageSize,
        column: 'createTime',
        order: 'asc',
      }),
    placeholderData: keepPreviousData,
  });
}

export function useRolePermissionIds(roleId: string | null) {
  return useQuery({
    queryKey: ['departRolePermission', roleId],
    queryFn: () =>
      http.get<string[]>('/sys/sysDepartPermission/queryDeptRolePermission', { roleId }),
    enabled: roleId !== null,
  });
}

export function useRoleUserIds(roleId: string | null) {
  return useQuery({
    queryKey: ['departRoleUsers', roleId],
    queryFn: () => http.get<string[]>('/sys/sysDepartRole/queryRoleUsers', { roleId }),
    enabled: roleId !== null,
  });
}

/**
 * Every write of the page: each shows the server's message and refreshes what it changed. A change
 * to grants also refreshes the caller's own menu, which may depend on them.
 */
export function useDepartMutations() {
  const refresh = (...keys: string[]) => ({
    invalidates: keys.map((key) => [key]),
    successMessage: serverMessage,
  });
  return {
    add: useEntityMutation({
      mutationFn: (input: TDepartAdd) =>
        request<TDepartTreeNode>('POST', '/sys/sysDepart/add', { body: input }),
      ...refresh('departTree'),
    }),
    edit: useEntityMutation({
      mutationFn: (input: TDepartEdit) =>
        request<TDepartTreeNode>('PUT', '/sys/sysDepart/edit', { body: input }),
      ...refresh('departTree'),
    }),
    remove: useEntityMutation({
      mutationFn: (id: string) =>
        request<null>('DELETE', '/sys/sysDepart/delete', { params: { id } }),
      ...refresh('departTree'),
    }),
    addMembers: useEntityMutation({
      mutationFn: (input: { depId: string; userIdList: string[] }) =>
        request<null>('POST', '/sys/sysDepart/editSysDepartWithUser', { body: input }),
      ...refresh('departMembers', 'departCandidates'),
    }),
    removeMembers: useEntityMutation({
      mutationFn: (input: { depId: string; userIds: string[] }) =>
        request<null>('DELETE', '/sys/sysDepart/deleteUserInDepartBatch', {
          params: { depId: input.depId, userIds: input.userIds.join(',') },
        }),
      ...refresh('departMembers', 'departCandidates', 'departRoleUsers', 'userPermission'),
    }),
    saveDepartPermission: useEntityMutation({
      mutationFn: (input: { departId: string; permissionIds: string[] }) =>
        request<null>('POST', '/sys/permission/saveDepartPermission', { body: input }),
      ...refresh('departPermission', 'departCeiling', 'departRolePermission', 'userPermission'),
    }),
    saveRole: useEntityMutation({
      mutationFn: (input: TDepartRoleAdd | TDepartRoleEdit) =>
        'id' in input
          ? request<TDepartRole>('PUT', '/sys/sysDepartRole/edit', { body: input })
          : request<TDepartRole>('POST', '/sys/sysDepartRole/add', { body: input }),
      ...refresh('departRoles'),
    }),
    removeRole: useEntityMutation({
      mutationFn: (id: string) =>
        request<null>('DELETE', '/sys/sysDepartRole/delete', { params: { id } }),
      ...refresh('departRoles', 'userPermission'),
    }),
    saveRolePermission: useEntityMutation({
      mutationFn: (input: { roleId: string; permissionIds: string[] }) =>
        request<null>('POST', '/sys/sysDepartPermission/saveDeptRolePermission', { body: input }),
      ...refresh('departRolePermission', 'userPermission'),
    }),
    saveRoleUsers: useEntityMutation({
      mutationFn: (input: { roleId: string; userIds: string[] }) =>
        request<null>('POST', '/sys/sysDepartRole/saveRoleUsers', { body: input }),
      ...refresh('departRoleUsers', 'userPermission'),
    }),
  };
}
