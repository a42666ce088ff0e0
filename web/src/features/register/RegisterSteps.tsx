import { Steps } from 'antd';
import { useTranslation } from 'react-i18next';

/** Spec section 2: user account, email verification, password, done. */
export function RegisterSteps({ current }: { current: number }) {
  const { t } = useTranslation();
  return (
    <Steps
      current={current}
      status={current === 3 ? 'finish' : 'process'}
      size="small"
      labelPlacement="vertical"
      responsive={false}
      className="account-page__steps"
      data-testid="register-steps"
      items={[
        { title: t('register.stepAccount') },
        { title: t('register.stepEmail') },
        { title: t('register.stepPassword') },
        { title: t('register.stepDone') },
      ]}
    />
  );
}
