import type { TDictItem } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../api/client';

/**
 * A dictionary's items (labels in the interface language). Dictionaries change rarely, so one
 * load per language serves every page.
 */
export function useDictItems(dictCode: string) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['dictItems', dictCode, i18n.language],
    queryFn: () => http.get<TDictItem[]>(`/sys/dict/getDictItems/${dictCode}`),
    staleTime: Infinity,
  });
}
