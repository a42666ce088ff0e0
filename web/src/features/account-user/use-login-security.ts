import type { TLoginSecurity } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

/** Lockouts and second factors of the users on the page (issue 14). */
export function useLoginSecurity(userIds: string[]) {
  return useQuery({
    queryKey: ['loginSecurity', userIds],
    queryFn: async () => {
      const rows = await http.get<TLoginSecurity[]>('/sys/user/loginSecurity', {
        ids: userIds.join(','),
      });
      return new Map(rows.map((r) => [r.userId, r]));
    },
    enabled: userIds.length > 0,
  });
}

export function useLoginSecurityMutations() {
  const done = { invalidates: [['loginSecurity']], successMessage: serverMessage };
  const unlock = useEntityMutation({
    mutationFn: (id: string) => request<null>('PUT', '/sys/user/unlock', { body: { id } }),
    ...done,
  });
  const resetTwoFactor = useEntityMutation({
    mutationFn: (id: string) => request<null>('PUT', '/sys/user/resetTwoFactor', { body: { id } }),
    ...done,
  });
  return { unlock, resetTwoFactor };
}
