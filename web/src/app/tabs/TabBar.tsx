import type { TMenuItem } from '@blrms/contracts';
import type { MenuProps } from 'antd';
import { App, Dropdown, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { usePageTitles } from '../../shared/page-title';
import { findMenuChain } from '../console/menu-tree';
import { tabs, useTabs } from './tabs-store';

type Action = 'refresh' | 'closeLeft' | 'closeRight' | 'closeOthers';
const ACTIONS: Action[] = ['refresh', 'closeLeft', 'closeRight', 'closeOthers'];

/** The multi-tab bar (spec section 2): one tab per opened page, with a right-click menu. */
export function TabBar({ menu, fixedWidth }: { menu: readonly TMenuItem[]; fixedWidth: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { paths } = useTabs();
  const pageTitles = usePageTitles();

  /** After closing, stay on the current page if it is still open, else go to `fallback`. */
  const settle = (fallback: string) => {
    if (!tabs.paths().includes(pathname)) navigate(fallback);
  };

  const close = (path: string) => {
    const index = paths.indexOf(path);
    const refusal = tabs.close(path);
    if (refusal === 'home') void message.warning(t('tabs.homeNotClosable'));
    else if (refusal === 'last') void message.warning(t('tabs.lastNotClosable'));
    else settle(paths[index + 1] ?? paths[index - 1] ?? path);
  };

  const run = (action: Action, path: string) => {
    if (action === 'refresh') {
      tabs.refresh(path);
      if (path !== pathname) navigate(path);
      return;
    }
    tabs[action](path);
    settle(path);
  };

  const contextMenu = (path: string): MenuProps => ({
    items: ACTIONS.map((action) => ({
      key: action,
      label: <span data-testid={`tab-menu-${action}`}>{t(`tabs.${action}`)}</span>,
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      const action = ACTIONS.find((a) => a === key);
      if (action) run(action, path);
    },
  });

  return (
    <div className="shell-tabs" data-testid="tab-bar">
      <Tabs
        className={fixedWidth ? 'shell-fixed-width' : undefined}
        type="editable-card"
        size="small"
        hideAdd
        locale={{ removeAriaLabel: t('tabs.close') }}
        activeKey={pathname}
        onChange={(key) => navigate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key);
        }}
        items={paths.map((path) => ({
          key: path,
          closable: true,
          label: (
            <Dropdown menu={contextMenu(path)} trigger={['contextMenu']}>
              <span data-testid={`tab-${path}`}>
                {pageTitles[path] ?? findMenuChain(menu, path).at(-1)?.meta.title ?? path}
              </span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
