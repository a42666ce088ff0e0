import { LockOutlined, LogoutOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { getCompanies, getCompanyId, logout } from '../../api/session';
import { AccountLayout } from '../../shared/account/AccountLayout';
import { useLoginUser } from '../../shared/use-login-user';

/**
 * What a signed-in user whose roles grant no page sees (a user added without a role, or whose
 * only role was deleted): who they are, and whom to ask, instead of a login that fails.
 */
export function NoConsolePage() {
  const { t } = useTranslation();
  const user = useLoginUser();
  const companyId = getCompanyId();
  const company = getCompanies().find((c) => c.id === companyId)?.name ?? '';

  return (
    <AccountLayout title={t('noConsole.title')} testId="no-console-page">
      <Result
        icon={<LockOutlined />}
        title={t('noConsole.heading')}
        subTitle={
          <>
            <div data-testid="no-console-user">
              {user ? `${user.realname || user.username} (${user.username})` : ''}
              {company && ` · ${company}`}
            </div>
            <div>{t('noConsole.askAdmin')}</div>
          </>
        }
        extra={
          <Button
            type="primary"
            icon={<LogoutOutlined />}
            onClick={async () => {
              await logout();
              window.location.replace('/');
            }}
            data-testid="no-console-logout"
          >
            {t('header.logout')}
          </Button>
        }
      />
    </AccountLayout>
  );
}
