import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AccountLayout } from '../../shared/account/AccountLayout';
import { LOGIN_PATH } from '../../shared/paths';
import { RegisterSteps } from './RegisterSteps';

/** `/user/register-result` (route name registerResult): the done step of the registration. */
export default function RegisterResultPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const username = params.get('username') ?? '';
  const email = params.get('email') ?? '';
  return (
    <AccountLayout title={t('register.title')} testId="register-result-page">
      <RegisterSteps current={3} />
      <Result
        status="success"
        title={t('register.doneTitle', { username })}
        subTitle={email ? t('register.doneSubtitle', { email }) : undefined}
        extra={
          <Link to={`${LOGIN_PATH}`}>
            <Button type="primary" size="large" data-testid="register-result-login">
              {t('register.toLogin')}
            </Button>
          </Link>
        }
      />
    </AccountLayout>
  );
}
