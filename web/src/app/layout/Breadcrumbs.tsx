import { HomeOutlined } from '@ant-design/icons';
import type { TMenuItem } from '@blrms/contracts';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePageTitles } from '../../shared/page-title';
import { HOME_PATH } from '../../shared/paths';
import { findMenuChain } from '../console/menu-tree';

/**
 * Spec section 2: Home, then the menu items down to the current page, then the page's own title
 * when it gives one (the device a detail page shows).
 */
export function Breadcrumbs({ menu }: { menu: readonly TMenuItem[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The home page is the Home crumb itself.
  const chain = findMenuChain(menu, pathname).filter((item) => item.path !== HOME_PATH);
  const pageTitle = usePageTitles()[pathname];

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
        ...(pageTitle && chain.length > 0 ? [{ key: pathname, title: pageTitle }] : []),
      ]}
    />
  );
}
