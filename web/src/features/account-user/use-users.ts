import type {
  TAdminChangePassword,
  TAdminUser,
  TAdminUserAdd,
  TAdminUserEdit,
  TAdminUserPage,
  TAdminUserQuery,
  TCompany,
  TDepartTreeNode,
  TPage,
  TPositionOption,
  TRole,
  TUserImportResult,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { downloadFile, http, request, uploadFile } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

export type UserParams = Omit<TAdminUserQuery, '_t'>;
export type UserFilters = Omit<UserParams, 'pageNo' | 'pageSize' | 'column' | 'order'>;

export function useUsers(params: UserParams) {
  return useQuery({
    queryKey: ['adminUsers', params],
    queryFn: () => http.get<TAdminUserPage>('/sys/user/list', params),
    placeholderData: keepPreviousData,
  });
}

/** Roles a user of the company may be given; another company's for platform administrators. */
export function useRoleOptions(companyId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['roleOptions', companyId ?? 'current'],
    queryFn: () => http.get<TRole[]>('/sys/role/queryall', companyId ? { companyId } : undefined),
    enabled,
  });
}

export function useDepartTree(enabled: boolean) {
  return useQuery({
    queryKey: ['departTree'],
    queryFn: () => http.get<TDepartTreeNode[]>('/sys/sysDepart/queryTreeList'),
    enabled,
  });
}

export function usePositionOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['positionOptions'],
    queryFn: () => http.get<TPositionOption[]>('/sys/position/queryall'),
    enabled,
  });
}

/** Customer companies, for platform administrators adding a user to one of them. */
export function useCompanyOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['companyOptions'],
    queryFn: () =>
      http.get<TPage<TCompany>>('/sys/company/list', {
        pageSize: 1000,
        column: 'name',
        order: 'asc',
      }),
    enabled,
  });
}

/** Every change shows the server's message and reloads the list. */
export function useUserMutations() {
  const done = { invalidates: [['adminUsers']], successMessage: serverMessage };
  const save = useEntityMutation({
    mutationFn: (input: TAdminUserAdd | TAdminUserEdit) =>
      'id' in input
        ? request<null>('PUT', '/sys/user/edit', { body: input })
        : request<TAdminUser>('POST', '/sys/user/add', { body: input }),
    ...done,
  });
  const setFrozen = useEntityMutation({
    mutationFn: (input: { ids: string[]; frozen: boolean }) =>
      request<null>('PUT', '/sys/user/frozenBatch', {
        body: { ids: input.ids.join(','), status: input.frozen ? '2' : '1' },
      }),
    ...done,
  });
  const remove = useEntityMutation({
    mutationFn: (ids: string[]) =>
      request<null>('DELETE', '/sys/user/deleteBatch', { params: { ids: ids.join(',') } }),
    ...done,
  });
  const resetPassword = useEntityMutation({
    mutationFn: (body: TAdminChangePassword) =>
      request<null>('PUT', '/sys/user/changePassword', { body }),
    invalidates: [],
    successMessage: serverMessage,
  });
  const importFile = useEntityMutation({
    mutationFn: (file: File) => uploadFile<TUserImportResult>('/sys/user/importExcel', file),
    invalidates: [['adminUsers']],
  });
  return { save, setFrozen, remove, resetPassword, importFile };
}

/** The filtered users as CSV or XLSX, times in this browser's zone as the list shows them. */
export function exportUsers(filters: UserFilters, format: 'xlsx' | 'csv') {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return downloadFile('/sys/user/exportXls', { ...filters, format, tz }, `users.${format}`);
}
