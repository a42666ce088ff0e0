// The console's root, loaded after sign-in (main.tsx): antd and its React 19 patch come with it.
import '@ant-design/v5-patch-for-react-19';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { registerFeedback } from '../api/feedback';
import { AppRoutes } from './AppRoutes';
import { queryClient } from './query-client';
import { useSettings } from './settings/settings-store';

function FeedbackBridge() {
  const feedback = AntApp.useApp();
  useEffect(() => registerFeedback(feedback), [feedback]);
  return null;
}

export function App() {
  const { primaryColor, colorWeak } = useSettings();
  const { i18n } = useTranslation();

  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', colorWeak);
  }, [colorWeak]);

  return (
    <ConfigProvider
      locale={i18n.language === 'en-US' ? enUS : zhCN}
      theme={{ token: { colorPrimary: primaryColor } }}
    >
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
