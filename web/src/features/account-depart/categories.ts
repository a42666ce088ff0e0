import { useTranslation } from 'react-i18next';

/** The `org_category` values: 1 company, 2 organisation, 3 post. */
export function useCategoryOptions() {
  const { t } = useTranslation();
  return [
    { value: '1', label: t('departAdmin.categoryCompany') },
    { value: '2', label: t('departAdmin.categoryOrg') },
    { value: '3', label: t('departAdmin.categoryPost') },
  ];
}

export const CATEGORY_COLORS: Record<string, string> = { '1': 'purple', '2': 'blue', '3': 'green' };
