import type { TMenuItem } from '@blrms/contracts';
import { App, Drawer, Layout } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { getUserInfo } from '../../api/session';
import { retainPageTitles, usePageTitles } from '../../shared/page-title';
import { useRealtimeConnection } from '../../realtime/use-realtime';
import { HOME_PATH } from '../../shared/paths';
import { SESSION_KEYS } from '../../shared/storage';
import { hasPage } from '../component-registry';
import { findMenuChain, menuPages } from '../console/menu-tree';
import { consoleShown } from '../console/rehearsal-end';
import { PageErrorBoundary } from '../PageErrorBoundary';
import { PageLoading } from '../PageLoading';
import { SettingsDrawer } from '../settings/SettingsDrawer';
import { updateSettings, useSettings } from '../settings/settings-store';
import { TabBar } from '../tabs/TabBar';
import { tabs, useTabs } from '../tabs/tabs-store';
import { ChangePasswordModal } from '../user/ChangePasswordModal';
import { DepartSelectModal } from '../user/DepartSelectModal';
import { Breadcrumbs } from './Breadcrumbs';
import { HeaderBar } from './HeaderBar';
import { Logo } from './Logo';
import { NavMenu } from './NavMenu';
import type { UserAction } from './UserMenu';
import { useHeaderHidden } from './use-header-hidden';
import { useViewport } from './use-viewport';
import './shell.css';

const TwoFactorModal = lazy(() => import('../user/TwoFactorModal'));

/** Spec section 9: 200 px open, 80 px collapsed; the mobile drawer is 200 px too. */
const SIDER_WIDTH = 200;
const SIDER_COLLAPSED_WIDTH = 80;

type Dialog =
  | { kind: 'password'; username: string }
  | { kind: 'depart'; mode: 'choose' | 'switch'; username: string }
  | { kind: 'twoFactor' };

function initialDialog(): Dialog | null {
  const username = getUserInfo()?.username;
  return username && sessionStorage.getItem(SESSION_KEYS.chooseDepart)
    ? { kind: 'depart', mode: 'choose', username }
    : null;
}

/** The console frame: side or top menu, header, tabs, breadcrumb and the current page. */
export function Shell({ menu }: { menu: readonly TMenuItem[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useSettings();
  const { isMobile, isTablet } = useViewport();
  const { pathname } = useLocation();
  const { paths: tabPaths, refresh } = useTabs();
  const pageTitles = usePageTitles();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(initialDialog);
  // On a tablet the menu starts collapsed (spec section 2) without overwriting the saved choice.
  const [tabletExpanded, setTabletExpanded] = useState(false);
  useRealtimeConnection();
  const headerHidden = useHeaderHidden(settings.fixedHeader && settings.autoHideHeader);

  const isSide = settings.layout === 'sidemenu';
  const collapsed = isTablet ? !tabletExpanded : settings.sidebarCollapsed;
  const siderFixed = settings.fixSiderbar && isSide && !isMobile;
  const currentItem = findMenuChain(menu, pathname).at(-1);
  const isPage = currentItem !== undefined && hasPage(currentItem.component);

  const pageTitle = pageTitles[pathname] ?? currentItem?.meta.title;
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - BLRMS` : 'BLRMS';
  }, [pageTitle]);

  const hasHome = menuPages(menu).some((item) => item.path === HOME_PATH);

  useEffect(() => {
    tabs.pinHome(hasHome);
  }, [hasHome]);

  useEffect(() => {
    if (isPage) tabs.open(pathname);
  }, [isPage, pathname]);

  useEffect(() => {
    retainPageTitles(tabPaths);
  }, [tabPaths]);

  // The rehearsal of this first render, if the sign-in page ran one, has done its work.
  useEffect(consoleShown, []);

  const toggleMenu = () => {
    if (isMobile) setDrawerOpen((open) => !open);
    else if (isTablet) setTabletExpanded((expanded) => !expanded);
    else updateSettings({ sidebarCollapsed: !settings.sidebarCollapsed });
  };

  const onUserAction = (action: UserAction) => {
    if (action === 'settings') {
      setSettingsOpen(true);
      return;
    }
    if (action === 'twoFactor') {
      setDialog({ kind: 'twoFactor' });
      return;
    }
    const username = getUserInfo()?.username;
    if (!username) {
      void message.warning(t('password.noUser'));
      return;
    }
    setDialog(
      action === 'password'
        ? { kind: 'password', username }
        : { kind: 'depart', mode: 'switch', username },
    );
  };

  const closeDialog = useCallback(() => {
    sessionStorage.removeItem(SESSION_KEYS.chooseDepart);
    setDialog(null);
  }, []);

  const siderWidth = collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH;

  return (
    <Layout className={`shell shell--${settings.layout}`} data-testid="shell">
      {isSide && !isMobile && (
        <>
          {siderFixed && (
            <div
              style={{ width: siderWidth, flex: `0 0 ${siderWidth}px`, transition: 'all 0.2s' }}
            />
          )}
          <Layout.Sider
            theme={settings.navTheme}
            width={SIDER_WIDTH}
            collapsedWidth={SIDER_COLLAPSED_WIDTH}
            collapsed={collapsed}
            trigger={null}
            collapsible
            className={`shell-sider ${siderFixed ? 'shell-sider--fixed' : ''}`}
            data-testid="sider"
          >
            <Logo theme={settings.navTheme} showTitle={!collapsed} />
            <NavMenu menu={menu} theme={settings.navTheme} mode="inline" collapsed={collapsed} />
          </Layout.Sider>
        </>
      )}
      {isMobile && (
        <Drawer
          placement="left"
          width={SIDER_WIDTH}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          closable={false}
          className={`shell-drawer shell-drawer--${settings.navTheme}`}
          styles={{ body: { padding: 0 } }}
        >
          <div data-testid="menu-drawer">
            <Logo theme={settings.navTheme} showTitle />
            <NavMenu
              menu={menu}
              theme={settings.navTheme}
              mode="inline"
              onNavigate={() => setDrawerOpen(false)}
            />
          </div>
        </Drawer>
      )}
      <Layout className="shell-main">
        <HeaderBar
          menu={menu}
          isMobile={isMobile}
          collapsed={collapsed}
          hidden={headerHidden}
          onToggleMenu={toggleMenu}
          onUserAction={onUserAction}
        />
        {settings.multipage && (
          <TabBar menu={menu} fixedWidth={!isSide && settings.contentWidth === 'Fixed'} />
        )}
        <Layout.Content className="shell-content">
          <div
            className={
              !isSide && settings.contentWidth === 'Fixed' ? 'shell-fixed-width' : undefined
            }
          >
            <Breadcrumbs menu={menu} />
            <PageErrorBoundary key={`${pathname}#${refresh[pathname] ?? 0}`}>
              <Suspense fallback={<PageLoading />}>
                <div data-testid="page">
                  <Outlet />
                </div>
              </Suspense>
            </PageErrorBoundary>
          </div>
        </Layout.Content>
      </Layout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      {dialog?.kind === 'password' && (
        <ChangePasswordModal username={dialog.username} onClose={closeDialog} />
      )}
      {dialog?.kind === 'twoFactor' && (
        <Suspense fallback={null}>
          <TwoFactorModal onClose={closeDialog} />
        </Suspense>
      )}
      {dialog?.kind === 'depart' && (
        <DepartSelectModal mode={dialog.mode} username={dialog.username} onClose={closeDialog} />
      )}
    </Layout>
  );
}
