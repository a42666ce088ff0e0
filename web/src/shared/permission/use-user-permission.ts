import type { TUserPermission } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { storeButtonAuth } from '../../api/session';
import { sysApi, takeEarlyPermission } from '../../api/sys';

/**
 * An empty menu is not an error (spec section 8 made it one, which logged out with an English
 * message): the console shows such a user whom to ask for a role.
 */
async function loadPermission(lang: string): Promise<TUserPermission> {
  const permission = await (takeEarlyPermission(lang) ?? sysApi.userPermission());
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
    queryFn: () => loadPermission(i18n.language),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
}
