import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LangSwitch } from '../LangSwitch';
import './account-layout.css';

/** The frame of the public account pages (register, password reset): the login page's look. */
export function AccountLayout({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.title')}`;
  }, [t, title]);
  return (
    <div className="account-page" data-testid={testId}>
      <div className="account-page__lang">
        <LangSwitch />
      </div>
      <main className="account-page__main">
        <header className="account-page__header">
          <img src="/logo.svg" alt="" className="account-page__logo" />
          <Typography.Title level={1} className="account-page__title">
            {t('app.title')}
          </Typography.Title>
        </header>
        <Typography.Title level={4} className="account-page__subtitle">
          {title}
        </Typography.Title>
        {children}
      </main>
    </div>
  );
}
