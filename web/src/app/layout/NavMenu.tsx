import type { TMenuItem } from '@blrms/contracts';
import type { MenuProps } from 'antd';
import { Menu } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { findMenuChain, visibleLeaf } from '../console/menu-tree';
import { MenuIcon } from './menu-icon';

type MenuItems = NonNullable<MenuProps['items']>;

function toItems(menu: readonly TMenuItem[]): MenuItems {
  return menu
    .filter((item) => !item.hidden)
    .map((item) => {
      const children = (item.children ?? []).filter((c) => !c.hidden);
      const label = (
        <span className="nav-menu-label" title={item.meta.title} data-testid={`menu-${item.path}`}>
          {item.meta.title}
        </span>
      );
      const icon = <MenuIcon name={item.meta.icon} />;
      return children.length > 0
        ? { key: item.path, icon, label, children: toItems(children) }
        : { key: item.path, icon, label };
    });
}

function findItem(menu: readonly TMenuItem[], path: string): TMenuItem | undefined {
  return findMenuChain(menu, path).at(-1);
}

type Props = {
  menu: readonly TMenuItem[];
  theme: 'dark' | 'light';
  mode: 'inline' | 'horizontal';
  collapsed?: boolean;
  onNavigate?: () => void;
};

/** The server menu as an antd Menu, used by the side bar, the mobile drawer and the top bar. */
export function NavMenu({ menu, theme, mode, collapsed = false, onNavigate }: Props) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const chain = findMenuChain(menu, pathname);
  const selected = visibleLeaf(chain)?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(() => chain.slice(0, -1).map((i) => i.path));
  // Follow navigation (tabs, search, links) by opening the groups above the current page.
  const [lastPath, setLastPath] = useState(pathname);
  if (lastPath !== pathname) {
    setLastPath(pathname);
    setOpenKeys((keys) => [...new Set([...keys, ...chain.slice(0, -1).map((i) => i.path)])]);
  }

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = findItem(menu, key);
    if (item?.meta.internalOrExternal && item.meta.url) {
      window.open(item.meta.url, '_blank', 'noopener,noreferrer');
      return;
    }
    navigate(key);
    onNavigate?.();
  };

  return (
    <Menu
      theme={theme}
      mode={mode}
      inlineIndent={16}
      items={toItems(menu)}
      selectedKeys={selected ? [selected] : []}
      {...(mode === 'inline' && !collapsed ? { openKeys, onOpenChange: setOpenKeys } : {})}
      onClick={onClick}
      style={
        mode === 'horizontal'
          ? { flex: 1, minWidth: 0, borderBottom: 'none' }
          : { borderInlineEnd: 'none' }
      }
    />
  );
}
