import { hasAction } from '@blrms/contracts';
import { getStoredButtonAuth } from '../../api/session';
import { useUserPermission } from './use-user-permission';

/** Spec section 5: whether the user may see an element guarded by `action`. */
export function useHasAction(action: string): boolean {
  const { data } = useUserPermission();
  return hasAction(data ?? getStoredButtonAuth(), action);
}
