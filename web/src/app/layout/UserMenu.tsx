import {
  ApartmentOutlined,
  ApiOutlined,
  DownOutlined,
  KeyOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Avatar, Dropdown, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useLoginUser } from '../../shared/use-login-user';
import { TWO_FACTOR_NS } from '../i18n/two-factor';

/** The user's API keys page (menu row `isps-api-key`), for those granted `apikey:own`. */
const API_KEYS_PATH = '/isps/apiKey';

export type UserAction = 'settings' | 'password' | 'depart' | 'twoFactor';

/** The header's user dropdown: settings, change password, switch department. */
export function UserMenu({
  onAction,
  compact,
}: {
  onAction: (action: UserAction) => void;
  compact: boolean;
}) {
  const { t } = useTranslation();
  const { t: tf } = useTranslation(TWO_FACTOR_NS);
  const user = useLoginUser();
  const navigate = useNavigate();
  const mayHaveKeys = useHasAction('apikey:own');

  const items: MenuProps['items'] = [
    {
      key: 'settings',
      icon: <SettingOutlined />,
      label: <span data-testid="user-menu-settings">{t('header.settings')}</span>,
    },
    {
      key: 'password',
      icon: <KeyOutlined />,
      label: <span data-testid="user-menu-password">{t('header.changePassword')}</span>,
    },
    {
      key: 'twoFactor',
      icon: <SafetyCertificateOutlined />,
      label: <span data-testid="user-menu-two-factor">{tf('menu')}</span>,
    },
    {
      key: 'depart',
      icon: <ApartmentOutlined />,
      label: <span data-testid="user-menu-depart">{t('header.switchDepart')}</span>,
    },
    ...(mayHaveKeys
      ? [
          {
            key: 'apiKeys',
            icon: <ApiOutlined />,
            label: <span data-testid="user-menu-api-keys">{t('apiKey.menu')}</span>,
          },
        ]
      : []),
  ];

  return (
    <Dropdown
      menu={{
        items,
        onClick: ({ key }) => {
          if (key === 'settings' || key === 'password' || key === 'depart' || key === 'twoFactor') {
            onAction(key);
          }
          if (key === 'apiKeys') void navigate(API_KEYS_PATH);
        },
      }}
      placement="bottomRight"
      trigger={['click']}
    >
      <button type="button" className="shell-action" data-testid="user-menu">
        <Space size={6}>
          <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
          {!compact && (
            <span className="shell-action__name">{user?.realname || user?.username}</span>
          )}
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </button>
    </Dropdown>
  );
}
