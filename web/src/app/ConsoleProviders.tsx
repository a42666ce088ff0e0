import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from './settings/settings-store';

/**
 * antd's configuration of the console: its language and the theme (the primary colour of the
 * settings). The console renders inside it, and so does the rehearsal of the console's first
 * page while the user signs in (console/rehearsal.tsx): the same theme gives the same style cache
 * keys, so the styles generated then are the ones the console finds.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  const { primaryColor } = useSettings();
  const { i18n } = useTranslation();
  return (
    <ConfigProvider
      locale={i18n.language === 'en-US' ? enUS : zhCN}
      theme={{ token: { colorPrimary: primaryColor } }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
