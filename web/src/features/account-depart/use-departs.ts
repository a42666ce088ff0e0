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
} from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { http, request } from '../../api/client';

type Page<T> = { records: T[]; total: number };
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
      http.get<Page<TDepartMember>>('/sys/sysDepart/departUserList', { depId, ...params }),
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
      http.get<Page<TDepartRole>>('/sys/sysDepartRole/list', {
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
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const refresh =
    (...keys: string[]) =>
    (result: { message: string }) => {
      void message.success(result.message);
      for (const key of keys) void queryClient.invalidateQueries({ queryKey: [key] });
    };
  return {
    add: useMutation({
      mutationFn: (input: TDepartAdd) =>
        request<TDepartTreeNode>('POST', '/sys/sysDepart/add', { body: input }),
      onSuccess: refresh('departTree'),
    }),
    edit: useMutation({
      mutationFn: (input: TDepartEdit) =>
        request<TDepartTreeNode>('PUT', '/sys/sysDepart/edit', { body: input }),
      onSuccess: refresh('departTree'),
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        request<null>('DELETE', '/sys/sysDepart/delete', { params: { id } }),
      onSuccess: refresh('departTree'),
    }),
    addMembers: useMutation({
      mutationFn: (input: { depId: string; userIdList: string[] }) =>
        request<null>('POST', '/sys/sysDepart/editSysDepartWithUser', { body: input }),
      onSuccess: refresh('departMembers', 'departCandidates'),
    }),
    removeMembers: useMutation({
      mutationFn: (input: { depId: string; userIds: string[] }) =>
        request<null>('DELETE', '/sys/sysDepart/deleteUserInDepartBatch', {
          params: { depId: input.depId, userIds: input.userIds.join(',') },
        }),
      onSuccess: refresh('departMembers', 'departCandidates', 'departRoleUsers', 'userPermission'),
    }),
    saveDepartPermission: useMutation({
      mutationFn: (input: { departId: string; permissionIds: string[] }) =>
        request<null>('POST', '/sys/permission/saveDepartPermission', { body: input }),
      onSuccess: refresh(
        'departPermission',
        'departCeiling',
        'departRolePermission',
        'userPermission',
      ),
    }),
    saveRole: useMutation({
      mutationFn: (input: TDepartRoleAdd | TDepartRoleEdit) =>
        'id' in input
          ? request<TDepartRole>('PUT', '/sys/sysDepartRole/edit', { body: input })
          : request<TDepartRole>('POST', '/sys/sysDepartRole/add', { body: input }),
      onSuccess: refresh('departRoles'),
    }),
    removeRole: useMutation({
      mutationFn: (id: string) =>
        request<null>('DELETE', '/sys/sysDepartRole/delete', { params: { id } }),
      onSuccess: refresh('departRoles', 'userPermission'),
    }),
    saveRolePermission: useMutation({
      mutationFn: (input: { roleId: string; permissionIds: string[] }) =>
        request<null>('POST', '/sys/sysDepartPermission/saveDeptRolePermission', { body: input }),
      onSuccess: refresh('departRolePermission', 'userPermission'),
    }),
    saveRoleUsers: useMutation({
      mutationFn: (input: { roleId: string; userIds: string[] }) =>
        request<null>('POST', '/sys/sysDepartRole/saveRoleUsers', { body: input }),
      onSuccess: refresh('departRoleUsers', 'userPermission'),
    }),
  };
}
