import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onPermissionVersionChange } from '../../api/client';

/**
 * Refetches the menu and button permissions when the server reports that the user's grants
 * changed (a permission-version header that differs from the last one seen), so a role change
 * reaches a signed-in user on their next request, without logging out or polling.
 */
export function usePermissionRefresh(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onPermissionVersionChange(
        () => void queryClient.invalidateQueries({ queryKey: ['userPermission'] }),
      ),
    [queryClient],
  );
}
