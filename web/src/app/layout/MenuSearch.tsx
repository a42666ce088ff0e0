import { SearchOutlined } from '@ant-design/icons';
import type { TMenuItem } from '@blrms/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuPages } from '../console/menu-tree';

/** Header search over the menu's pages by title; choosing one opens it. */
export function MenuSearch({ menu }: { menu: readonly TMenuItem[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const options = menuPages(menu).map((item) => ({ value: item.path, label: item.meta.title }));

  return (
    <Select<string | null>
      showSearch
      value={null}
      placeholder={t('header.searchMenu')}
      aria-label={t('header.searchMenu')}
      options={options}
      optionFilterProp="label"
      suffixIcon={<SearchOutlined />}
      onSelect={(path) => {
        if (path) navigate(path);
      }}
      style={{ width: 180 }}
      variant="filled"
      data-testid="menu-search"
      popupMatchSelectWidth={220}
    />
  );
}
