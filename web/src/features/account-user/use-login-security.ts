import type { TLoginSecurity } from '@blrms/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { http, request } from '../../api/client';

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
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const done = (result: { message: string }) => {
    void message.success(result.message);
    void queryClient.invalidateQueries({ queryKey: ['loginSecurity'] });
  };
  const unlock = useMutation({
    mutationFn: (id: string) => request<null>('PUT', '/sys/user/unlock', { body: { id } }),
    onSuccess: done,
  });
  const resetTwoFactor = useMutation({
    mutationFn: (id: string) => request<null>('PUT', '/sys/user/resetTwoFactor', { body: { id } }),
    onSuccess: done,
  });
  return { unlock, resetTwoFactor };
}
