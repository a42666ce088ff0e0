import type { TDictItem } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../api/client';

/**
 * A dictionary's items (labels in the interface language). Dictionaries change rarely, so one
 * load per language serves every page; the dictionary screen drops these queries when it changes one.
 */
export function useDictItems(dictCode: string) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['dictItems', dictCode, i18n.language],
    queryFn: () =>
      http.get<TDictItem[]>(`/sys/dict/getDictItems/${dictCode}`, undefined, {
        // A select without its dictionary falls back to its built-in options; no error notice.
        silent: true,
      }),
    staleTime: Infinity,
  });
}

export type DictOption = { value: string; label: string; color: string | null };

/**
 * The options of a select whose values the server checks against a fixed list (a contract's
 * enum): the dictionary words them and orders them, and only values of `allowed` are offered.
 * Until the dictionary is loaded, or when it has none of them, the built-in `fallback` serves.
 */
export function dictOptionsOf(
  items: readonly TDictItem[] | undefined,
  allowed: readonly string[] | null,
  fallback: readonly { value: string; label: string }[],
): DictOption[] {
  const options = (items ?? [])
    .filter((item) => allowed === null || allowed.includes(item.value))
    .map((item) => ({ value: item.value, label: item.text, color: item.color }));
  return options.length > 0 ? options : fallback.map((f) => ({ ...f, color: null }));
}

/** `dictOptionsOf` the dictionary, loaded once per language. */
export function useDictOptions(
  dictCode: string,
  allowed: readonly string[] | null,
  fallback: readonly { value: string; label: string }[] = [],
): DictOption[] {
  return dictOptionsOf(useDictItems(dictCode).data, allowed, fallback);
}

/**
 * The same options as a ProTable column's `valueEnum` (its search select and its cell text); a
 * Map, because an object would put keys such as '0', '1' in numeric order, not the dictionary's.
 */
export function dictValueEnum(options: readonly DictOption[]): Map<string, { text: string }> {
  return new Map(options.map((o) => [o.value, { text: o.label }]));
}
