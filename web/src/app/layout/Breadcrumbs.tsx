import { HomeOutlined } from '@ant-design/icons';
import type { TMenuItem } from '@blrms/contracts';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { HOME_PATH } from '../../shared/paths';
import { findMenuChain } from '../console/menu-tree';

/** Spec section 2: Home, then the menu items down to the current page. */
export function Breadcrumbs({ menu }: { menu: readonly TMenuItem[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The home page is the Home crumb itself.
  const chain = findMenuChain(menu, pathname).filter((item) => item.path !== HOME_PATH);

  return (
    <Breadcrumb
      className="shell-breadcrumb"
      data-testid="breadcrumb"
      items={[
        {
          key: 'home',
          title: (
            <Link to={HOME_PATH}>
              <HomeOutlined /> {t('menu.home')}
            </Link>
          ),
        },
        ...chain.map((item) => ({ key: item.path, title: item.meta.title })),
      ]}
    />
  );
}
