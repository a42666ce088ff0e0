import type {
  TCompany,
  TCompanyAdd,
  TCompanyAdmin,
  TCompanyEdit,
  TCompanyQuery,
  TCompanyStatus,
} from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { http, request } from '../../api/client';

export type CompanyParams = Omit<TCompanyQuery, '_t'>;
type Page = { records: TCompany[]; total: number };

export function useCompanies(params: CompanyParams) {
  return useQuery({
    queryKey: ['companies', params],
    queryFn: () => http.get<Page>('/sys/company/list', params),
    placeholderData: keepPreviousData,
  });
}

export function useCompanyAdmins(companyId: string | null) {
  return useQuery({
    queryKey: ['companyAdmins', companyId],
    queryFn: () => http.get<TCompanyAdmin[]>('/sys/company/queryAdmins', { id: companyId }),
    enabled: companyId !== null,
  });
}

export function useCompanyMutations() {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const done = (result: { message: string }) => {
    void message.success(result.message);
    void queryClient.invalidateQueries({ queryKey: ['companies'] });
  };
  // Form errors (duplicates, weak password) are shown by the form itself, next to its fields.
  const add = useMutation({
    mutationFn: (input: TCompanyAdd) =>
      request<TCompany>('POST', '/sys/company/add', { body: input, silent: true }),
    onSuccess: done,
  });
  const edit = useMutation({
    mutationFn: (input: TCompanyEdit) =>
      request<TCompany>('PUT', '/sys/company/edit', { body: input, silent: true }),
    onSuccess: done,
  });
  const setStatus = useMutation({
    mutationFn: (input: TCompanyStatus) =>
      request<TCompany>('PUT', '/sys/company/frozen', { body: input }),
    onSuccess: done,
  });
  return { add, edit, setStatus };
}
