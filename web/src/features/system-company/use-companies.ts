import type {
  TCompany,
  TCompanyAdd,
  TCompanyAdmin,
  TCompanyEdit,
  TCompanyQuery,
  TCompanyStatus,
  TPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

export type CompanyParams = Omit<TCompanyQuery, '_t'>;

export function useCompanies(params: CompanyParams) {
  return useQuery({
    queryKey: ['companies', params],
    queryFn: () => http.get<TPage<TCompany>>('/sys/company/list', params),
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
  const done = { invalidates: [['companies']], successMessage: serverMessage };
  // Form errors (duplicates, weak password) are shown by the form itself, next to its fields.
  const add = useEntityMutation({
    mutationFn: (input: TCompanyAdd) =>
      request<TCompany>('POST', '/sys/company/add', { body: input, silent: true }),
    ...done,
  });
  const edit = useEntityMutation({
    mutationFn: (input: TCompanyEdit) =>
      request<TCompany>('PUT', '/sys/company/edit', { body: input, silent: true }),
    ...done,
  });
  const setStatus = useEntityMutation({
    mutationFn: (input: TCompanyStatus) =>
      request<TCompany>('PUT', '/sys/company/frozen', { body: input }),
    ...done,
  });
  return { add, edit, setStatus };
}
