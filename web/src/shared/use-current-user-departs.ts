import type { TDepart } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sysApi } from '../api/sys';

export const CURRENT_USER_DEPARTS_KEY = ['currentUserDeparts'] as const;

export function useCurrentUserDeparts(enabled = true) {
  return useQuery({
    queryKey: CURRENT_USER_DEPARTS_KEY,
    queryFn: sysApi.currentUserDeparts,
    enabled,
  });
}

/** A department's name in the interface language, falling back to the Chinese name. */
export function useDepartName(): (depart: TDepart) => string {
  const { i18n } = useTranslation();
  return (depart) =>
    i18n.language === 'en-US' && depart.departNameEn ? depart.departNameEn : depart.departName;
}
