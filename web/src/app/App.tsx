// The console's root, loaded after sign-in (main.tsx): antd and its React 19 patch come with it.
import '@ant-design/v5-patch-for-react-19';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { registerFeedback } from '../api/feedback';
import { AppRoutes } from './AppRoutes';
import { ConsoleProviders } from './ConsoleProviders';
import { queryClient } from './query-client';
import { useSettings } from './settings/settings-store';

function FeedbackBridge() {
  const feedback = AntApp.useApp();
  useEffect(() => registerFeedback(feedback), [feedback]);
  return null;
}

export function App() {
  const { colorWeak } = useSettings();

  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', colorWeak);
  }, [colorWeak]);

  return (
    <ConsoleProviders>
      <FeedbackBridge />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </ConsoleProviders>
  );
}
