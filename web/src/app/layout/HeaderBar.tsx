import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import type { TMenuItem } from '@blrms/contracts';
import { App, Layout, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { logout } from '../../api/session';
import { LangSwitch } from '../../shared/LangSwitch';
import { AlarmCount } from '../notice/AlarmCount';
import { NoticeBell } from '../notice/NoticeBell';
import { useSettings } from '../settings/settings-store';
import { Logo } from './Logo';
import { MenuSearch } from './MenuSearch';
import { NavMenu } from './NavMenu';
import type { UserAction } from './UserMenu';
import { UserMenu } from './UserMenu';

const LOGOUT_NOTICE_MS = 1500;

type Props = {
  menu: readonly TMenuItem[];
  isMobile: boolean;
  collapsed: boolean;
  hidden: boolean;
  onToggleMenu: () => void;
  onUserAction: (action: UserAction) => void;
};

export function HeaderBar({
  menu,
  isMobile,
  collapsed,
  hidden,
  onToggleMenu,
  onUserAction,
}: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const settings = useSettings();
  const isTop = settings.layout === 'topmenu' && !isMobile;
  const theme = isTop ? settings.navTheme : 'light';

  const confirmLogout = () =>
    modal.confirm({
      title: t('header.logoutTitle'),
      content: t('header.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const confirmed = await logout();
        // The session is gone either way; a failed server call is only reported before reloading.
        if (!confirmed) void message.error(t('header.logoutFailed'));
        window.setTimeout(() => window.location.replace('/'), confirmed ? 0 : LOGOUT_NOTICE_MS);
      },
    });

  const className = [
    'shell-header',
    `shell-header--${theme}`,
    settings.fixedHeader ? 'shell-header--fixed' : '',
    hidden ? 'shell-header--hidden' : '',
  ].join(' ');

  return (
    <Layout.Header className={className} data-testid="header">
      <div
        className={`shell-header__inner ${isTop && settings.contentWidth === 'Fixed' ? 'shell-fixed-width' : ''}`}
      >
        {isTop ? (
          <>
            <Logo theme={settings.navTheme} showTitle />
            <NavMenu menu={menu} theme={settings.navTheme} mode="horizontal" />
          </>
        ) : (
          <button
            type="button"
            className="shell-action shell-trigger"
            onClick={onToggleMenu}
            aria-label={t('header.toggleMenu')}
            data-testid="menu-toggle"
          >
            {collapsed || isMobile ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          </button>
        )}
        <div className="shell-header__right">
          {!isMobile && <MenuSearch menu={menu} />}
          <AlarmCount />
          <NoticeBell />
          <LangSwitch className="shell-action" />
          <UserMenu onAction={onUserAction} compact={isMobile} />
          <Tooltip title={t('header.logout')}>
            <button
              type="button"
              className="shell-action"
              onClick={confirmLogout}
              aria-label={t('header.logout')}
              data-testid="logout-button"
            >
              <LogoutOutlined />
            </button>
          </Tooltip>
        </div>
      </div>
    </Layout.Header>
  );
}
