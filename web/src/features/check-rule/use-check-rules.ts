import type { TCheckRuleListQuery } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { checkRuleApi } from '../../api/account';

export type CheckRuleParams = Omit<TCheckRuleListQuery, '_t'>;

export const CHECK_RULES_KEY = 'checkRules';

export function useCheckRules(params: CheckRuleParams) {
  return useQuery({
    queryKey: [CHECK_RULES_KEY, params],
    queryFn: () => checkRuleApi.list(params),
    placeholderData: keepPreviousData,
  });
}
