import type { TUserPermission } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { storeButtonAuth } from '../../api/session';
import { sysApi } from '../../api/sys';

/** Spec section 8: an empty menu is an error, reported with this exact text. */
export const EMPTY_MENU_ERROR = 'getPermissionList: permissions must be a non-null array !';

async function loadPermission(): Promise<TUserPermission> {
  const permission = await sysApi.userPermission();
  if (!Array.isArray(permission.menu) || permission.menu.length === 0) {
    throw new Error(EMPTY_MENU_ERROR);
  }
  storeButtonAuth(permission.auth, permission.allAuth);
  return permission;
}

/**
 * The user's menu and button permissions. Menu titles arrive in the request language, so the
 * language is part of the key and a switch refetches while the old menu stays on screen.
 */
export function useUserPermission() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['userPermission', i18n.language],
    queryFn: loadPermission,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
}
